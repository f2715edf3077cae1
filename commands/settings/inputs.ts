/**
 * Inputs of the shared-settings mutations, validated with zod; each schema is also the GraphQL input
 * type (api/graphql/input-sdl.ts). Payment term lines are a party's too (commands/parties/inputs.ts).
 */
import { z } from 'zod';
import { PaymentMeanType, PaymentMethodType, PaymentTermLineCondition, PaymentTermLineType } from '../../domain/settings/enums.ts';
import type { PaymentTermLineInput as PaymentTermLineCommand } from '../../domain/settings/payment-terms.ts';
import { PAYMENT_MEAN_DESCRIPTION_LENGTH } from '../../domain/settings/settings.ts';
import { gql, named } from '../input-types.ts';

const text = (max: number) => z.string().max(max).nullish();
/** An IBAN or BIC: blank is none (null), as a client clearing the field sends it; absent stays absent (an update's unchanged). */
const bankCode = (max: number) => z.string().max(max).nullish().transform((v) => (typeof v === 'string' && v.trim() === '' ? null : v));
const name = (max = 200) => z.string().trim().min(1).max(max);
/** A flag the client may leave out: absent or null means false. */
const flag = z.boolean().nullish().transform((v) => v ?? false);

/** Sage's line: `order` 1, 2, ... (9999 the REMAINING_AMOUNT line); left out, the line's position. */
export const PaymentTermLineInput = named('PaymentTermLineCreateGLDtoInput', z.object({
  type: gql.enumOf('PaymentTermLineType', PaymentTermLineType),
  value: gql.decimal.nullish(),
  order: gql.int.nullish(),
  condition: gql.enumOf('PaymentTermLineCondition', PaymentTermLineCondition),
  day: gql.int.nullish(),
  payDays: z.array(gql.int).max(3).nullish(),
  paymentMeanId: gql.uuid.nullish(),
}));

/** Payment term lines as the decider takes them: each with its id (`payment-term-line`, by position), unset fields null. */
export function paymentTermLines(lines: readonly z.infer<typeof PaymentTermLineInput>[], newId: (kind: string, index: number) => string): PaymentTermLineCommand[] {
  return lines.map((l, n) => ({
    lineId: newId('payment-term-line', n), order: l.order ?? null, condition: l.condition, day: l.day ?? null, payDays: l.payDays ?? null, type: l.type, value: l.value ?? null, paymentMeanId: l.paymentMeanId ?? null,
  }));
}

export const BusinessAreaCreateInput = named('BusinessAreaCreateGLDtoInput', z.object({ name: name(100) }));
export const JobAreaCreateInput = named('JobAreaCreateGLDtoInput', z.object({ name: name(100) }));
/**
 * Sage's `{ description }`, unique in the organisation; type UNDEFINED and active unless sent. Our fields
 * from before issue 17 stay accepted as optional extras: a code (unique when given), bank details, an account.
 */
export const PaymentMeanCreateInput = named('PaymentMeanCreateGLDtoInput', z.object({
  description: name(PAYMENT_MEAN_DESCRIPTION_LENGTH),
  type: gql.enumOf('PaymentMeanType', PaymentMeanType).nullish().transform((v) => v ?? 'UNDEFINED'),
  inactive: flag,
  code: z.string().min(1).max(20).nullish(),
  iban: bankCode(42),
  bic: bankCode(11),
  bankName: text(200),
  accountingAccountId: gql.uuid.nullish(),
}));

/** A bank or cash account: the journal type and sub-account its payments post through. */
const paymentMethodFields = {
  referenceName: name(100),
  type: gql.enumOf('PaymentMethodType', PaymentMethodType),
  disabled: z.boolean(),
  journalTypeId: gql.uuid,
  subAccountId: gql.uuid,
  iban: bankCode(42),
  bic: bankCode(11),
  bankName: text(200),
};
export const PaymentMethodCreateInput = named('PaymentMethodCreateGLDtoInput', z.object({
  ...paymentMethodFields,
  type: paymentMethodFields.type.nullish().transform((v) => v ?? 'NOT_SPECIFIED'),
  disabled: flag,
}));
/** Only the fields sent change; iban, bic and bankName are cleared with null. */
export const PaymentMethodUpdateInput = named('PaymentMethodUpdateGLDtoInput', z.object({ id: gql.uuid, ...paymentMethodFields }).partial({
  referenceName: true, type: true, disabled: true, journalTypeId: true, subAccountId: true,
}));

/** Sage's payment term: a name and its lines; `code`, ours before issue 17, stays optional. */
export const PaymentTermCreateInput = named('PaymentTermCreateGLDtoInput', z.object({
  name: name(), code: z.string().min(1).max(20).nullish(), disabled: flag, lines: z.array(PaymentTermLineInput).max(12),
}));

const deletion = (entity: string) => named(`${entity}DeleteGLDtoInput`, z.object({ id: gql.uuid }));
export const BusinessAreaDeleteInput = deletion('BusinessArea');
export const PaymentMeanDeleteInput = deletion('PaymentMean');
export const PaymentMethodDeleteInput = deletion('PaymentMethod');
export const PaymentTermDeleteInput = deletion('PaymentTerm');

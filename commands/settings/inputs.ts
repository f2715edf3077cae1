/**
 * Inputs of the shared-settings mutations, validated with zod; each schema is also the GraphQL input
 * type (api/graphql/input-sdl.ts). Payment term lines are a party's too (commands/parties/inputs.ts).
 */
import { z } from 'zod';
import { PaymentMethodType, PaymentTermLineCondition, PaymentTermLineType } from '../../domain/settings/enums.ts';
import type { PaymentTermLineInput as PaymentTermLineCommand } from '../../domain/settings/payment-terms.ts';
import { gql, named } from '../input-types.ts';

const text = (max: number) => z.string().max(max).nullish();
const name = (max = 200) => z.string().trim().min(1).max(max);
const code = z.string().min(1).max(20);
/** A flag the client may leave out: absent or null means false. */
const flag = z.boolean().nullish().transform((v) => v ?? false);

export const PaymentTermLineInput = named('PaymentTermLineCreateGLDtoInput', z.object({
  condition: gql.enumOf('PaymentTermLineCondition', PaymentTermLineCondition),
  day: gql.int.nullish(),
  payDays: z.array(gql.int).max(3).nullish(),
  type: gql.enumOf('PaymentTermLineType', PaymentTermLineType),
  value: gql.decimal.nullish(),
  paymentMeanId: gql.uuid.nullish(),
}));

/** Payment term lines as the decider takes them: each with its id (`payment-term-line`, by position), unset fields null. */
export function paymentTermLines(lines: readonly z.infer<typeof PaymentTermLineInput>[], newId: (kind: string, index: number) => string): PaymentTermLineCommand[] {
  return lines.map((l, n) => ({
    lineId: newId('payment-term-line', n), condition: l.condition, day: l.day ?? null, payDays: l.payDays ?? null, type: l.type, value: l.value ?? null, paymentMeanId: l.paymentMeanId ?? null,
  }));
}

export const BusinessAreaCreateInput = named('BusinessAreaCreateGLDtoInput', z.object({ name: name(100) }));
export const JobAreaCreateInput = named('JobAreaCreateGLDtoInput', z.object({ name: name(100) }));
export const PaymentMeanCreateInput = named('PaymentMeanCreateGLDtoInput', z.object({
  code, name: name(), type: gql.enumOf('PaymentMethodType', PaymentMethodType), iban: text(42), bic: text(11), bankName: text(200),
  accountingAccountId: gql.uuid.nullish(), disabled: flag,
}));
export const PaymentTermCreateInput = named('PaymentTermCreateGLDtoInput', z.object({
  code, name: name(), disabled: flag, lines: z.array(PaymentTermLineInput).max(12),
}));

const deletion = (entity: string) => named(`${entity}DeleteGLDtoInput`, z.object({ id: gql.uuid }));
export const BusinessAreaDeleteInput = deletion('BusinessArea');
export const PaymentMeanDeleteInput = deletion('PaymentMean');
export const PaymentTermDeleteInput = deletion('PaymentTerm');

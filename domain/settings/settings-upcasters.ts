/**
 * The SharedSettings events' shapes over time (see domain/upcasters.ts). Issue 17 gave payment means,
 * payment terms and their lines Sage's shape and values; settings stored before it read as follows.
 */
import type { EventUpcaster } from '../upcasters.ts';
import { PAYMENT_MEAN_DESCRIPTION_LENGTH } from './settings.ts';

/** Old line types and conditions by Sage's. DELIVERY_DATE has no counterpart: its days run from the document's date. */
const LINE_TYPE: Record<string, string> = { REMAINDER: 'REMAINING_AMOUNT' };
const LINE_CONDITION: Record<string, string> = { INVOICE_DATE: 'DAY_OF_PAYMENT', DELIVERY_DATE: 'DAY_OF_PAYMENT' };

/**
 * Payment term lines (a term's, a customer's or a supplier's) with Sage's values: REMAINDER becomes
 * REMAINING_AMOUNT, INVOICE_DATE and DELIVERY_DATE DAY_OF_PAYMENT. Their order (1, 2, ... by position)
 * and values (a remainder line's percentage) stay. The one mapping the settings' and parties' upcasters share.
 */
export function sageTermLines(lines: unknown): unknown {
  if (!Array.isArray(lines)) return lines; // a party update that left its lines unchanged (null)
  return lines.map((l: Record<string, unknown>) => ({
    ...l, type: LINE_TYPE[l.type as string] ?? l.type, condition: LINE_CONDITION[l.condition as string] ?? l.condition,
  }));
}

/** An old description: the mean's name, trimmed and cut to Sage's 20 characters (code points, trailing spaces trimmed again). */
export const descriptionOfName = (name: string): string => [...name.trim()].slice(0, PAYMENT_MEAN_DESCRIPTION_LENGTH).join('').trimEnd();

/**
 * PaymentMeanCreated 1 -> 2: `{ code, name, type BANK_TRANSFER..., iban, bic, bankName, accountingAccountId,
 * disabled }` becomes Sage's `{ description, type, inactive }` with our extras: the description from the
 * name, the type UNDEFINED (none of the old kinds of mean is Sage's PAYMENT_IN), inactive from disabled;
 * the code (unique then, so it still tells apart two means whose names cut alike), bank details and
 * account stay.
 */
const meanInSageShape: EventUpcaster = {
  type: 'PaymentMeanCreated',
  from: 1,
  upcast(data) {
    if ('description' in data) return data;
    const { name, disabled, type: _, ...kept } = data;
    return {
      code: null, iban: null, bic: null, bankName: null, accountingAccountId: null, ...kept,
      description: descriptionOfName(String(name)), type: 'UNDEFINED', inactive: disabled === true,
    };
  },
};

/**
 * PaymentMeanDeleted 1 -> 2: an old deletion named the mean by its code, the only name it carried, which
 * stays its name (the queue's, as its creation's); the description is that code too, having no other.
 */
const meanDeletedByDescription: EventUpcaster = {
  type: 'PaymentMeanDeleted',
  from: 1,
  upcast: (data) => ('description' in data ? data : { ...data, description: data.code }),
};

/** PaymentTermCreated 1 -> 2: its lines with Sage's values (its code, required then, stays). */
const termLinesInSageValues: EventUpcaster = {
  type: 'PaymentTermCreated',
  from: 1,
  upcast: (data) => ({ ...data, lines: sageTermLines(data.lines) }),
};

/** PaymentTermDeleted 1 -> 2: it names the term; an old deletion carried only its code. */
const termDeletedByName: EventUpcaster = {
  type: 'PaymentTermDeleted',
  from: 1,
  upcast: (data) => ('name' in data ? data : { ...data, name: data.code }),
};

export const SETTINGS_UPCASTERS: readonly EventUpcaster[] = [meanInSageShape, meanDeletedByDescription, termLinesInSageValues, termDeletedByName];

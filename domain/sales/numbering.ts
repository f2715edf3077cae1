/**
 * The number series (DESIGN.md): one per document type and year per organisation, gap-free, formatted
 * prefix + year + '-' + six digits (`F2026-000123`). Quotes, orders and delivery notes take theirs at
 * creation; invoices and credit notes when closed (the invoice lifecycle calls takeNumber).
 */
import { fail, Errors, Reasons } from '../errors.ts';
import type { SalesDocumentKind } from './enums.ts';
import type { TakenNumber } from './events.ts';
import { seriesKey, type SalesState } from './state.ts';

export const SERIES = { QUOTE: 'Q', ORDER: 'SO', DELIVERY_NOTE: 'DN', INVOICE: 'F', CREDIT_NOTE: 'CN' } as const;
export type Series = (typeof SERIES)[keyof typeof SERIES];

export const NUMBER_DIGITS = 6;
const MAX_SEQUENCE = 10 ** NUMBER_DIGITS - 1;

/** The series a document created now is numbered in, if it is numbered at creation. */
export const seriesAtCreation = (kind: SalesDocumentKind): Series | null => (kind === 'INVOICE' ? null : SERIES[kind]);

/** The next number of `series` in `year`: one more than the last taken, formatted. */
export function takeNumber(state: SalesState, series: string, year: number): TakenNumber {
  const sequence = (state.lastSequence.get(seriesKey(series, year)) ?? 0) + 1;
  if (sequence > MAX_SEQUENCE) fail(Errors.invalidInput, { field: 'operationalNumber', reason: Reasons.tooMany, limit: MAX_SEQUENCE });
  return { series, year, sequence, operationalNumber: `${series}${year}-${String(sequence).padStart(NUMBER_DIGITS, '0')}` };
}

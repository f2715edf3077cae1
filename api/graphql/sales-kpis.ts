/**
 * `salesKpis(input: { kpiTypes })`: Sage's sales dashboard figures (sage-names.md s1-030; breadth §3), as
 * `KpiGlDto { type value currency }` in the order asked. Read from the sales read models only, under the
 * caller's organisation (row-level security, and each query names the organisation as well).
 *
 * What each figure is, for the period (by default the current calendar year, UTC; `startDate`/`endDate`, both
 * days included, are ours: Sage's input has only kpiTypes):
 * - MONEY_IN: what customers paid: the settlements' paid amounts dated (entry date) in the period, less those
 *   undone (their entry deleted); a credit note's refund counts negative.
 * - MONEY_OUT: what was paid to suppliers. Purchases are not built yet: always 0 until they are.
 * - TOTAL_CUSTOMERS: the customers invoiced in the period: distinct customers of the invoices dated in it that
 *   were issued (closed, posted or collected; not drafts, not credit notes).
 * - TOTAL_FROM_OPEN_QUOTES: the net amount (totalNet: before taxes and withholding) of the quotes dated in the
 *   period that are still open (Pending), whole, even when part of one was already converted.
 * - QUOTES_WITH_RELATED_DOCUMENTS: how many quotes dated in the period some document follows (an order, a
 *   delivery note or an invoice converted from or linked to it).
 * Amounts are in the organisation's currency, at its decimals: a document in another currency converts at its own
 * exchangeRate, each payment or quote rounded as its entry would be (half away from zero). Counts have no currency.
 * The books as of an earlier instant (`asOf`) are not kept by these read models: not offered.
 */
import { GraphQLError } from 'graphql';
import type pg from 'pg';
import { toIsoDate } from '../../domain/calendar.ts';
import { Decimal } from '../../domain/money.ts';
import { SalesIndicatorType } from '../../domain/sales/enums.ts';
import type { QuerySpec } from '../../modules/module.ts';
import { OrganizationCurrency } from '../../projections/accounting/read-models.ts';
import { RelatedSalesDocument, SalesInvoice, SalesQuote, SalesSettlementPayment } from '../../projections/sales/read-models.ts';

const SALES_KPIS_SDL = `
input SalesKpiInput {
  kpiTypes: [SalesIndicatorType!]!
  "First day of the period (ours; default: 1 January of the current year)."
  startDate: DateTime
  "Last day of the period, included (ours; default: 31 December of the current year)."
  endDate: DateTime
}`;

const SALES_KPIS_ROOT_FIELDS = `
  salesKpis(input: SalesKpiInput!): [KpiGlDto!]! @listSize(assumedSize: 5)`;

export interface SalesKpiInput {
  kpiTypes: SalesIndicatorType[];
  startDate?: string | null;
  endDate?: string | null;
}

interface Period {
  start: string;
  end: string;
}

/**
 * A day, from a date or a date-time (its calendar date as written, in its own offset: docs/decisions.md "Dates";
 * `2026-03-31T00:00:00+02:00` is 31 March), between years 1 and 9999: a date that does not exist (2025-02-31) is
 * refused, not rolled into the next month, and so is year 0 (PostgreSQL would refuse it).
 */
export function dayOf(value: unknown, field: string): string {
  const text = typeof value === 'string' ? value : '';
  const answer = toIsoDate(text) ?? '';
  if (!answer) throw new GraphQLError(`input.${field}: ${JSON.stringify(text.slice(0, 40))} is not a date of years 1 to 9999 (YYYY-MM-DD or an ISO 8601 date-time)`, { extensions: { code: 'INVALID_QUERY' } });
  return answer;
}

export function periodOf(input: SalesKpiInput, now: Date): Period {
  const year = now.getUTCFullYear();
  const start = input.startDate == null ? `${year}-01-01` : dayOf(input.startDate, 'startDate');
  const end = input.endDate == null ? `${year}-12-31` : dayOf(input.endDate, 'endDate');
  if (start > end) throw new GraphQLError(`input.endDate: ${end} is before startDate ${start}`, { extensions: { code: 'INVALID_QUERY' } });
  return { start, end };
}

/** A stored date-time column's UTC day within the period ($2, $3); $1 is the organisation. */
const inPeriod = (column: string) => `(${column} AT TIME ZONE 'UTC')::date BETWEEN $2::date AND $3::date`;

/** An amount's query or a count's; null: no read model holds it yet (zero). */
type Figure = { sql: ((precision: number) => string) | null; amount: boolean };

/** Each figure's query: one value, over $1 the organisation and $2..$3 the period. */
const FIGURES: Record<SalesIndicatorType, Figure> = {
  MONEY_IN: {
    amount: true,
    // What the payment entries debited to the bank: each payment as its entry credited it (a settlement that closes
    // an item credits what is left of the converted receivable); older ones at the invoice's rate.
    sql: (p) => `SELECT coalesce(sum(coalesce(p.organisation_amount, round(p.paid_amount * i.exchange_rate, ${p}))), 0) AS value
      FROM ${SalesSettlementPayment.table} p JOIN ${SalesInvoice.table} i ON i.organisation_id = p.organisation_id AND i.id = p.sales_invoice_id
      WHERE p.organisation_id = $1 AND NOT p.undone AND ${inPeriod('p.entry_date')}`,
  },
  MONEY_OUT: { amount: true, sql: null },
  TOTAL_CUSTOMERS: {
    amount: false,
    sql: () => `SELECT count(DISTINCT customer_id) AS value FROM ${SalesInvoice.table}
      WHERE organisation_id = $1 AND type <> 'CREDIT_NOTE' AND status <> 'Pending' AND ${inPeriod('document_date')}`,
  },
  TOTAL_FROM_OPEN_QUOTES: {
    amount: true,
    sql: (p) => `SELECT coalesce(sum(round(total_net * exchange_rate, ${p})), 0) AS value FROM ${SalesQuote.table}
      WHERE organisation_id = $1 AND status = 'Pending' AND ${inPeriod('document_date')}`,
  },
  QUOTES_WITH_RELATED_DOCUMENTS: {
    amount: false,
    sql: () => `SELECT count(*) AS value FROM ${SalesQuote.table} q
      WHERE q.organisation_id = $1 AND ${inPeriod('q.document_date')}
        AND EXISTS (SELECT 1 FROM ${RelatedSalesDocument.table} r WHERE r.organisation_id = $1 AND r.origin_id = q.id)`,
  },
};

/** The organisation's own currency and its decimals (the accounting read model's base currency). */
export async function baseCurrency(db: pg.PoolClient, organisationId: string): Promise<{ code: string | null; precision: number }> {
  const { rows } = await db.query(`SELECT code, precision FROM ${OrganizationCurrency.table} WHERE organisation_id = $1 AND is_base_currency`, [organisationId]);
  // (Every organisation has one from its creation; an integer, put into the SQL as such.)
  return { code: rows[0]?.code ?? null, precision: Math.trunc(Number(rows[0]?.precision ?? 2)) };
}

/** The figures asked for, each once, in the order asked; `db` is already confined to the organisation. */
export async function salesKpis(db: pg.PoolClient, organisationId: string, input: SalesKpiInput, now: Date) {
  const period = periodOf(input, now);
  const currency = await baseCurrency(db, organisationId);
  const answers = [];
  for (const type of new Set(input.kpiTypes)) {
    const figure = FIGURES[type];
    const rows = figure.sql ? (await db.query(figure.sql(currency.precision), [organisationId, period.start, period.end])).rows : [{ value: 0 }];
    const value = new Decimal(rows[0].value);
    answers.push({ type, value: figure.amount ? value.toFixed(currency.precision) : value.toFixed(0), currency: figure.amount ? currency.code : null });
  }
  return answers;
}

export const SALES_KPIS: QuerySpec = {
  sdl: SALES_KPIS_SDL,
  rootFields: SALES_KPIS_ROOT_FIELDS,
  resolvers: { salesKpis: (args: { input: SalesKpiInput }, ctx) => ctx.read((db) => salesKpis(db, ctx.caller.organisationId, args.input, ctx.now)) },
};

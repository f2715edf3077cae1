/**
 * Standard journal types (diarios / journaux / Buchungskreise / day books) seeded per country,
 * named in the country's language. Every country gets an OPENING and a CLOSING journal.
 */
import { JournalTypeType } from '../accounting/enums.ts';
import { OrganisationCountry } from '../enums.ts';

export interface StandardJournalType {
  code: string;
  name: string;
  type: JournalTypeType;
  isCreditNote: boolean;
}

type Row = readonly [code: string, name: string, type: JournalTypeType, isCreditNote?: boolean];

const table = (rows: readonly Row[]): readonly StandardJournalType[] =>
  Object.freeze(rows.map(([code, name, type, isCreditNote]) => Object.freeze({ code, name, type, isCreditNote: isCreditNote ?? false })));

const ES = table([
  ['VEN', 'Ventas', 'SALES_INVOICE'],
  ['ABV', 'Abonos de ventas', 'SALES_CREDIT_NOTE', true],
  ['COM', 'Compras', 'PURCHASE_INVOICE'],
  ['ABC', 'Abonos de compras', 'PURCHASE_CREDIT_NOTE', true],
  ['BAN', 'Bancos', 'BANK'],
  ['CAJ', 'Caja', 'CASH'],
  ['GEN', 'General', 'GENERAL'],
  ['APE', 'Apertura', 'OPENING'],
  ['CIE', 'Cierre', 'CLOSING'],
]);

const FR = table([
  ['VTE', 'Ventes', 'SALES_INVOICE'],
  ['AVV', 'Avoirs ventes', 'SALES_CREDIT_NOTE', true],
  ['ACH', 'Achats', 'PURCHASE_INVOICE'],
  ['BQ', 'Banque', 'BANK'],
  ['CAI', 'Caisse', 'CASH'],
  ['SAL', 'Salaires', 'PAYROLL'],
  ['OD', 'Opérations diverses', 'GENERAL'],
  ['AN', 'À-nouveaux', 'OPENING'],
  ['CLO', 'Clôture', 'CLOSING'],
]);

const DE = table([
  ['AR', 'Ausgangsrechnungen', 'SALES_INVOICE'],
  ['GS', 'Gutschriften an Kunden', 'SALES_CREDIT_NOTE', true],
  ['ER', 'Eingangsrechnungen', 'PURCHASE_INVOICE'],
  ['BK', 'Bank', 'BANK'],
  ['KA', 'Kasse', 'CASH'],
  ['LG', 'Lohn und Gehalt', 'PAYROLL'],
  ['SK', 'Sonstige Buchungen', 'GENERAL'],
  ['EB', 'Eröffnungsbuchungen', 'OPENING'],
  ['AB', 'Abschlussbuchungen', 'CLOSING'],
]);

const UKIE = table([
  ['SI', 'Sales Invoices', 'SALES_INVOICE'],
  ['SC', 'Sales Credits', 'SALES_CREDIT_NOTE', true],
  ['PI', 'Purchase Invoices', 'PURCHASE_INVOICE'],
  ['BR', 'Bank Receipts', 'BANK'],
  ['BP', 'Bank Payments', 'BANK'],
  ['CA', 'Cash', 'CASH'],
  ['JD', 'Journal', 'GENERAL'],
  ['OB', 'Opening Balances', 'OPENING'],
  ['YE', 'Year End', 'CLOSING'],
]);

const USCA = table([
  ['SJ', 'Sales Journal', 'SALES_INVOICE'],
  ['SR', 'Sales Returns and Allowances', 'SALES_CREDIT_NOTE', true],
  ['PJ', 'Purchase Journal', 'PURCHASE_INVOICE'],
  ['CR', 'Cash Receipts', 'BANK'],
  ['CD', 'Cash Disbursements', 'BANK'],
  ['PR', 'Payroll', 'PAYROLL'],
  ['GJ', 'General Journal', 'GENERAL'],
  ['OB', 'Opening Balances', 'OPENING'],
  ['CJ', 'Closing Entries', 'CLOSING'],
]);

const BY_COUNTRY: Record<OrganisationCountry, readonly StandardJournalType[]> = {
  ES,
  FR,
  DE,
  GB: UKIE,
  IE: UKIE,
  US: USCA,
  CA: USCA,
};

export function standardJournalTypesFor(country: OrganisationCountry): readonly StandardJournalType[] {
  const types = BY_COUNTRY[country];
  if (!types) throw new Error(`no standard journal types for country ${country}`);
  return types;
}

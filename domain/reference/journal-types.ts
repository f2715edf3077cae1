/**
 * Standard journal types (diarios / journaux / Buchungskreise / day books) seeded per country,
 * named in the country's language, typed with Sage's journal types. Every country gets a CARRY_FORWARD
 * (opening balances) and a CLOSING journal. Bank and cash journals are both FINANCIAL and credit-note
 * journals are invoice journals with isCreditNote: their codes and names keep them apart, and nothing
 * decides by the finer kind.
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
  ['ABV', 'Abonos de ventas', 'SALES_INVOICE', true],
  ['COM', 'Compras', 'PURCHASE_INVOICE'],
  ['ABC', 'Abonos de compras', 'PURCHASE_INVOICE', true],
  ['BAN', 'Bancos', 'FINANCIAL'],
  ['CAJ', 'Caja', 'FINANCIAL'],
  ['GEN', 'General', 'GENERAL'],
  ['APE', 'Apertura', 'CARRY_FORWARD'],
  ['CIE', 'Cierre', 'CLOSING'],
]);

const FR = table([
  ['VTE', 'Ventes', 'SALES_INVOICE'],
  ['AVV', 'Avoirs ventes', 'SALES_INVOICE', true],
  ['ACH', 'Achats', 'PURCHASE_INVOICE'],
  ['BQ', 'Banque', 'FINANCIAL'],
  ['CAI', 'Caisse', 'FINANCIAL'],
  ['SAL', 'Salaires', 'GENERAL'],
  ['OD', 'Opérations diverses', 'GENERAL'],
  ['AN', 'À-nouveaux', 'CARRY_FORWARD'],
  ['CLO', 'Clôture', 'CLOSING'],
]);

const DE = table([
  ['AR', 'Ausgangsrechnungen', 'SALES_INVOICE'],
  ['GS', 'Gutschriften an Kunden', 'SALES_INVOICE', true],
  ['ER', 'Eingangsrechnungen', 'PURCHASE_INVOICE'],
  ['BK', 'Bank', 'FINANCIAL'],
  ['KA', 'Kasse', 'FINANCIAL'],
  ['LG', 'Lohn und Gehalt', 'GENERAL'],
  ['SK', 'Sonstige Buchungen', 'GENERAL'],
  ['EB', 'Eröffnungsbuchungen', 'CARRY_FORWARD'],
  ['AB', 'Abschlussbuchungen', 'CLOSING'],
]);

const UKIE = table([
  ['SI', 'Sales Invoices', 'SALES_INVOICE'],
  ['SC', 'Sales Credits', 'SALES_INVOICE', true],
  ['PI', 'Purchase Invoices', 'PURCHASE_INVOICE'],
  ['BR', 'Bank Receipts', 'FINANCIAL'],
  ['BP', 'Bank Payments', 'FINANCIAL'],
  ['CA', 'Cash', 'FINANCIAL'],
  ['JD', 'Journal', 'GENERAL'],
  ['OB', 'Opening Balances', 'CARRY_FORWARD'],
  ['YE', 'Year End', 'CLOSING'],
]);

const USCA = table([
  ['SJ', 'Sales Journal', 'SALES_INVOICE'],
  ['SR', 'Sales Returns and Allowances', 'SALES_INVOICE', true],
  ['PJ', 'Purchase Journal', 'PURCHASE_INVOICE'],
  ['CR', 'Cash Receipts', 'FINANCIAL'],
  ['CD', 'Cash Disbursements', 'FINANCIAL'],
  ['PR', 'Payroll', 'GENERAL'],
  ['GJ', 'General Journal', 'GENERAL'],
  ['OB', 'Opening Balances', 'CARRY_FORWARD'],
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

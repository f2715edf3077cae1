/**
 * The accounts an invoice posts to, resolved against the organisation's chart (pure): the receivable is the
 * customer's own account, else the chart's customers account; a line's sales account its product's, else the
 * account of its treatment's kind (`salesAccountCodeOf`: the organisation's default, intra-EU or export sales
 * account), else the chart's sales account (its services account for a domestic service, where the chart has one); output tax the treatment's outputAccountCode (a US/CA organisation's own rate: its country's sales tax
 * payable); recargo the same
 * account (the PGC posts it to 477 with the IVA: no chart here has a dedicated one); withholding the
 * country's withholdingAccountCode. A code the chart lacks is the coded accountNotFound.
 */
import { AccountingErrors } from '../accounting/errors.ts';
import type { OrganisationState } from '../accounting/organisation.ts';
import { assert, fail } from '../errors.ts';
import { CHART_DEFAULT_ACCOUNTS } from '../reference/chart-defaults.ts';
import { masterChartFor } from '../reference/charts.ts';
import { referenceId } from '../reference/countries.ts';
import { salesTaxOutputAccountCode, salesTaxTreatmentCode, taxCatalogueFor } from '../taxes/catalogue/index.ts';
import type { TaxTreatmentKind } from '../taxes/enums.ts';
import type { SalesDocument, SalesLine } from './events.ts';
import type { InvoicePostingAccounts } from './posting.ts';

export interface PostingAccountChoices {
  customerAccountId: string | null;
  customerCode: string | null;
  /** The product's own sales account, if it has one. */
  productAccountIdOf?: (line: SalesLine) => string | null;
  /** The organisation's sales account code for a treatment kind (intra-EU, export); undefined: the chart's sales account. */
  salesAccountCodeOf?: (kind: TaxTreatmentKind) => string | undefined;
  original?: InvoicePostingAccounts['original'];
}

/** ES invoices carry their SII type: F1, or the credit note's reason (R1..R5). Other countries have none. */
function invoiceTypeIdOf(org: OrganisationState, document: SalesDocument): string | null {
  if (org.country !== 'ES') return null;
  const reason = document.creditNoteReason;
  return referenceId('invoice-type', reason && reason !== 'UNDEFINED' ? reason : document.invoiceType === 'CREDIT_NOTE' ? 'R4' : 'F1');
}

export function chartPostingAccounts(org: OrganisationState, document: SalesDocument, choices: PostingAccountChoices): InvoicePostingAccounts {
  const country = org.country;
  assert(country, 'an organisation has its country');
  const catalogue = taxCatalogueFor(country);
  const roles = CHART_DEFAULT_ACCOUNTS[masterChartFor(country).key] ?? {};
  const byCode = (code: string | undefined, field: string) => (code && org.accountIdByCode.get(code)) || fail(AccountingErrors.accountNotFound, { code: code ?? '', field });
  // US/CA: an organisation's own rate's treatment (SALES-<code>) is DOMESTIC and posts to the country's sales tax payable.
  const ownRate = (code: string) => catalogue.ratesSetByOrganisation && code.startsWith(salesTaxTreatmentCode(''))
    ? { kind: 'DOMESTIC' as const, outputAccountCode: salesTaxOutputAccountCode(country as 'US' | 'CA') } : undefined;
  const treatmentOf = (code: string) => catalogue.treatments.find((t) => t.code === code) ?? ownRate(code);
  const outputAccount = (code: string) => byCode(treatmentOf(code)?.outputAccountCode ?? roles.outputVat, 'outputAccountCode');
  return {
    receivableAccountId: choices.customerAccountId ?? byCode(roles.customers, 'customers'),
    customerCode: choices.customerCode,
    salesAccountOf: (line) => {
      const own = choices.productAccountIdOf?.(line);
      if (own) return own;
      const kind = treatmentOf(line.taxTreatmentCode)?.kind;
      const code = (kind && choices.salesAccountCodeOf?.(kind)) || roles.saleProducts;
      // Domestic services go where the chart keeps them apart from goods (PGC 705, PCG 706).
      const service = line.isService && code === roles.saleProducts && roles.saleServices;
      return byCode(service || code, 'salesAccount');
    },
    outputTaxAccountOf: (row) => outputAccount(row.taxTreatmentCode),
    surchargeAccountOf: (row) => outputAccount(row.taxTreatmentCode),
    withholdingAccountId: catalogue.withholdingAccountCode ? byCode(catalogue.withholdingAccountCode, 'withholdingAccountCode') : null,
    invoiceTypeId: invoiceTypeIdOf(org, document),
    precision: org.currencyPrecision,
    original: choices.original ?? null,
  };
}

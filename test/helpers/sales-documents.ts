/**
 * Sales documents for the posting tests, computed by the tax engine itself (domain/taxes/calculate.ts), and an
 * organisation whose account ids are its master chart's codes, so an entry's lines read as the chart's codes.
 */
import { initialOrganisationState, type OrganisationState } from '../../domain/accounting/organisation.ts';
import type { OrganisationCountry } from '../../domain/enums.ts';
import * as chartDefaults from '../../domain/reference/chart-defaults.ts';
import { masterChartFor } from '../../domain/reference/charts.ts';
import type { SalesDocument, SalesLine } from '../../domain/sales/events.ts';
import { calculateDocumentTaxes } from '../../domain/taxes/calculate.ts';
import { resolveTreatment } from '../../domain/taxes/catalogue/index.ts';
import type { TaxTreatmentKind } from '../../domain/taxes/enums.ts';
import { derivedId } from '../../domain/ids.ts';

/** Ids of the organisation's tax rows, as uuids (the read models store them so). */
const TEST_ORGANISATION = '7d0c4a52-3f0e-4f8e-9a51-2c1b9e6d4f10';
export const treatmentIdOf = (code: string) => derivedId(TEST_ORGANISATION, 'tax-treatment', code);

export interface LineSpec {
  treatment: string;
  quantity: string;
  unitPrice: string;
  discountPercent?: string;
  isService?: boolean;
  withheld?: boolean;
  productAccount?: string;
}

export interface DocumentSpec {
  country: OrganisationCountry;
  lines: LineSpec[];
  hasEquivalenceSurcharge?: boolean;
  withholdingPercentage?: string;
  currencyCode?: string;
  exchangeRate?: string;
  precision?: number;
  creditNote?: boolean;
  number?: string;
}

export function salesDocument(spec: DocumentSpec): SalesDocument {
  const taxes = calculateDocumentTaxes({
    country: spec.country, precision: spec.precision, hasEquivalenceSurcharge: spec.hasEquivalenceSurcharge, withholdingPercentage: spec.withholdingPercentage,
    lines: spec.lines.map((l) => ({
      quantity: l.quantity, unitPrice: l.unitPrice, discountPercent: l.discountPercent, taxTreatment: resolveTreatment(spec.country, l.treatment),
      isService: l.isService, subjectToWithholding: l.withheld ?? false,
    })),
  });
  const lines = spec.lines.map((l, i): SalesLine => {
    const amounts = taxes.lines[i];
    return {
      // productId: the tests' productAccountIdOf reads it as the product's account.
      lineId: `line-${i + 1}`, order: i + 1, productId: l.productAccount ?? null, productCode: null, productName: null,
      totalQuantity: l.quantity, unitPrice: l.unitPrice, unitPriceSource: 'INPUT', firstDiscount: l.discountPercent ?? '0', firstDiscountSource: 'INPUT',
      taxTreatmentId: treatmentIdOf(l.treatment), taxTreatmentCode: l.treatment, taxId: derivedId(TEST_ORGANISATION, 'tax', l.treatment), taxGroupId: null,
      vatPercentage: amounts.vatPercentage, equivalenceSurchargePercentage: amounts.equivalenceSurchargePercentage, withholdingPercentage: amounts.withholdingPercentage,
      isService: l.isService ?? false, totalGross: amounts.totalGross, totalDiscount: amounts.totalDiscount, totalNet: amounts.totalNet, origin: null, creditedLineId: null,
    };
  });
  return {
    documentId: 'invoice-1', kind: 'INVOICE', invoiceType: spec.creditNote ? 'CREDIT_NOTE' : 'NORMAL', operationalNumber: spec.number ?? 'F2026-000001',
    header: {
      customerId: 'customer-1', documentDate: '2026-03-10', operationDate: null, socialName: null, vatNumber: null, contactName: null, contactPhone: null,
      contactEmail: null, mainAddress: null, deliveryAddress: null, comments: null, remarks: null, externalReference: 'PO-77', salesOrderNumber: null,
      hasEquivalenceSurcharge: spec.hasEquivalenceSurcharge ?? false, withholdingPercentage: spec.withholdingPercentage ?? null, customerDiscount: '0', salesTariffId: null, salesDiscountGroupId: null,
      currencyCode: spec.currencyCode ?? 'EUR', exchangeRate: spec.exchangeRate ?? '1', paymentTermLines: [], invoiceEmail: null, specialMention: null,
    },
    lines,
    amounts: { rounding: { level: taxes.rounding.level, mode: taxes.rounding.mode }, taxes: taxes.taxes, withholdings: taxes.withholdings, totals: taxes.totals },
    sourceInvoiceId: null, creditNoteReason: spec.creditNote ? 'R1' : null, creditNoteType: spec.creditNote ? 'BY_DIFFERENCES' : null,
  };
}

/** An organisation of `country` whose every master chart account's id is its code. */
export function chartOrganisation(country: OrganisationCountry, currencyPrecision = 2): OrganisationState {
  const org = initialOrganisationState();
  org.id = 'organisation-1';
  org.country = country;
  org.currencyPrecision = currencyPrecision;
  for (const line of masterChartFor(country).lines) org.accountIdByCode.set(line.code, line.code);
  return org;
}

/**
 * The organisation's sales account code for a treatment kind, by the tax module's role helper where it is
 * merged (salesAccountRoleFor), else undefined: the chart's sales account (main has no intra-EU/export roles).
 */
export function salesAccountCodeOf(country: OrganisationCountry): (kind: TaxTreatmentKind) => string | undefined {
  const roleFor = (chartDefaults as Record<string, unknown>).salesAccountRoleFor as ((kind: TaxTreatmentKind) => string) | undefined;
  const roles = chartDefaults.CHART_DEFAULT_ACCOUNTS[masterChartFor(country).key] as Record<string, string | undefined>;
  return (kind) => (roleFor ? roles[roleFor(kind)] : undefined);
}

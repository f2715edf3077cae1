/**
 * A sales document's taxes (pure): each line's gross, discount and net; per treatment (one rate each) the
 * base, tax and recargo; per withholding rate the base and withholding; and the document's totals under
 * Sage's names. Every amount is rounded to the currency's decimals as the organisation's country rounds it
 * (catalogue rounding: per line, or once per rate on the document).
 *
 * Line amounts: gross = quantity x unit price, discount = gross x firstDiscount %, each to the currency's
 * decimals halves away from zero; net = gross - discount. With a second discount the net is compounded to the
 * cent at once, round(gross x (1 - a)(1 - b)), and the discount is what it leaves of the gross (a combined
 * percentage rounded first would be off by cents on large lines). Only DOMESTIC treatments charge tax; every other
 * kind (exempt, intra-EU with reverse charge, export, outside the scope) counts its base and charges nothing.
 */
import { Decimal, MAX_AMOUNT, ZERO } from '../money.ts';
import { Reasons, assert, fail } from '../errors.ts';
import type { OrganisationCountry } from '../enums.ts';
import { TaxErrors } from './errors.ts';
import { taxCatalogueFor } from './catalogue/index.ts';
import type { ResolvedTreatment, TaxRate, TaxRounding } from './catalogue/types.ts';
import type { TaxTreatmentKind, TaxType } from './enums.ts';
import { apportion, percentOf, roundAmount } from './rounding.ts';

/** Most lines one document may hold (the calculation and the posted entry stay bounded). */
export const MAX_DOCUMENT_LINES = 1000;
/** Decimals a currency may have (JPY 0 ... BHD/KWD 3; 4 is the store's scale). */
export const MAX_CURRENCY_PRECISION = 4;

export interface TaxLineInput {
  /** Decimal text; negative on credit notes. */
  quantity: string;
  unitPrice: string;
  /** Sage's firstDiscount: a percentage, 0 to 100. */
  discountPercent?: string;
  /** A second discount compounded after the first (a sales document's customer discount), 0 to 100. */
  secondDiscountPercent?: string;
  taxTreatment: ResolvedTreatment;
  /** false leaves the line out of the document's withholding (e.g. expenses passed on at cost). */
  subjectToWithholding?: boolean;
  /** A supply of services, not a delivery of goods; unset takes the treatment's isService. */
  isService?: boolean;
  /**
   * The line's gross and net as given, not quantity x price (a credit note taking the last units of an invoice
   * line credits what remains of it, to the cent); the discount is their difference. Amounts at the precision.
   */
  givenAmounts?: { totalGross: string; totalNet: string };
}

export interface TaxDocumentInput {
  country: OrganisationCountry;
  /** The document currency's decimals (2 unless told). */
  precision?: number;
  /** The customer is in recargo de equivalencia (ES): DOMESTIC lines of goods carry their rate's surcharge. */
  hasEquivalenceSurcharge?: boolean;
  /** IRPF withholding (ES), one of the country's withholding rates; absent or '0' for none. */
  withholdingPercentage?: string;
  lines: readonly TaxLineInput[];
  /** The country's rule unless told: an organisation may keep another its law allows (catalogue roundingOptions). */
  rounding?: Pick<TaxRounding, 'level' | 'mode'>;
}

export interface LineAmounts {
  taxTreatmentCode: string;
  totalGross: string;
  totalDiscount: string;
  totalNet: string;
  vatPercentage: string;
  equivalenceSurchargePercentage: string;
  withholdingPercentage: string;
}

/** One row per treatment on the document: the AccountingEntryTax of the posting. */
export interface TaxBreakdownRow {
  taxTreatmentCode: string;
  taxCode: string;
  taxType: TaxType;
  kind: TaxTreatmentKind;
  taxPercentage: string;
  taxBase: string;
  taxAmount: string;
  hasEquivalenceSurcharge: boolean;
  equivalenceSurchargePercentage: string;
  equivalenceSurchargeQuota: string;
}

export interface WithholdingRow {
  taxCode: string;
  withholdingPercentage: string;
  withholdingBase: string;
  withholdingAmount: string;
}

export interface DocumentTotals {
  totalGross: string;
  totalDiscount: string;
  totalNet: string;
  totalVatBase: string;
  totalVat: string;
  totalFeeSurcharge: string;
  totalWithholding: string;
  /** net + VAT + surcharge: what the customer owes before the withholding. */
  totalLiquidNoWithholding: string;
  /** net + VAT + surcharge - withholding. */
  totalLiquid: string;
}

export interface DocumentTaxes {
  rounding: TaxRounding;
  lines: LineAmounts[];
  taxes: TaxBreakdownRow[];
  withholdings: WithholdingRow[];
  totals: DocumentTotals;
}

const QUANTITY = /^-?\d{1,12}(\.\d{1,6})?$/;
const PRICE = /^\d{1,15}(\.\d{1,6})?$/;
const PERCENT = /^\d{1,3}(\.\d{1,4})?$/;

function lineNumber(line: number, field: string, raw: string | undefined, pattern: RegExp): Decimal {
  if (raw === undefined || !pattern.test(raw)) return fail(TaxErrors.invalidTaxLine, { line, field, reason: Reasons.amountFormat });
  return new Decimal(raw);
}

/** What a discount of `percent` leaves: 1 - percent / 100. */
const remainderOf = (percent: Decimal): Decimal => new Decimal(1).minus(percent.dividedBy(100));

function percentage(line: number, field: string, raw: string | undefined): Decimal {
  const value = raw === undefined || raw === '' ? ZERO : lineNumber(line, field, raw, PERCENT);
  if (value.gt(100)) fail(TaxErrors.invalidTaxLine, { line, field, reason: Reasons.percentage });
  return value;
}

/** The country's withholding rate of `raw` percent, or undefined for none. */
function withholdingRate(country: OrganisationCountry, raw: string | undefined): TaxRate | undefined {
  if (raw === undefined || raw === '' || (PERCENT.test(raw) && new Decimal(raw).isZero())) return undefined;
  const wanted = PERCENT.test(raw) ? new Decimal(raw) : undefined;
  const tax = wanted && taxCatalogueFor(country).taxes.find((t) => t.isWithholding && wanted.eq(t.percentage));
  return tax || fail(TaxErrors.withholdingNotAllowed, { percentage: raw, country });
}

interface Charged {
  resolved: ResolvedTreatment;
  net: Decimal;
  taxPercentage: Decimal;
  surchargePercentage: Decimal;
}

/**
 * What a line charges: the rate of a DOMESTIC treatment (and, for a customer in recargo, its surcharge on a
 * delivery of goods: LIVA art. 156 charges recargo on goods only, never on services); else nothing.
 */
function chargedRates(line: TaxLineInput, hasEquivalenceSurcharge: boolean): { taxPercentage: Decimal; surchargePercentage: Decimal } {
  const { treatment, tax } = line.taxTreatment;
  const isService = line.isService ?? treatment.isService;
  if (treatment.kind !== 'DOMESTIC') {
    assert(new Decimal(tax.percentage).isZero(), `treatment ${treatment.code} (${treatment.kind}) names a non-zero rate`);
    return { taxPercentage: ZERO, surchargePercentage: ZERO };
  }
  const surcharge = hasEquivalenceSurcharge && treatment.hasSurcharge && !isService ? new Decimal(tax.equivalenceSurchargePercentage) : ZERO;
  return { taxPercentage: new Decimal(tax.percentage), surchargePercentage: surcharge };
}

/**
 * Every line's treatment is of the document's country, and of one tax system: a supply is taxed either in
 * the IVA territory or in the Canaries' IGIC (Ley 20/1991 art. 3), never both on one invoice. One treatment
 * code charges one rate (an organisation's sales tax codes included).
 */
function taxedUnderOneSystem(input: TaxDocumentInput): void {
  let system: { taxType: TaxType; line: number } | undefined;
  const firstOfCode = new Map<string, TaxRate>();
  input.lines.forEach((line, index) => {
    const { country, treatment } = line.taxTreatment;
    if (country !== input.country) fail(TaxErrors.taxTreatmentOfAnotherCountry, { line: index + 1, code: treatment.code, treatmentCountry: country, country: input.country });
    const first = firstOfCode.get(treatment.code);
    if (first && !new Decimal(first.percentage).eq(line.taxTreatment.tax.percentage)) {
      fail(TaxErrors.taxCodeWithTwoRates, { line: index + 1, code: treatment.code, percentage: line.taxTreatment.tax.percentage, otherPercentage: first.percentage });
    }
    if (!first) firstOfCode.set(treatment.code, line.taxTreatment.tax);
    if (treatment.taxType !== 'IVA' && treatment.taxType !== 'IGIC') return;
    if (system && system.taxType !== treatment.taxType) fail(TaxErrors.taxSystemsMixed, { line: index + 1, taxType: treatment.taxType, otherTaxType: system.taxType });
    system ??= { taxType: treatment.taxType, line: index + 1 };
  });
}

/** The country's rule, or the allowed option the document asks for; any other is a coded error. */
function roundingOf(country: OrganisationCountry, wanted: TaxDocumentInput['rounding']): TaxRounding {
  const catalogue = taxCatalogueFor(country);
  if (!wanted) return catalogue.rounding;
  const option = catalogue.roundingOptions.find((o) => o.level === wanted.level && o.mode === wanted.mode);
  return option ?? fail(TaxErrors.roundingNotAllowed, { country, level: wanted.level, mode: wanted.mode });
}

const sum = (values: readonly Decimal[]): Decimal => values.reduce((total, v) => total.plus(v), ZERO);

export function calculateDocumentTaxes(input: TaxDocumentInput): DocumentTaxes {
  const precision = input.precision ?? 2;
  assert(Number.isInteger(precision) && precision >= 0 && precision <= MAX_CURRENCY_PRECISION, `currency precision ${precision}`);
  if (input.lines.length > MAX_DOCUMENT_LINES) fail(TaxErrors.tooManyDocumentLines, { max: MAX_DOCUMENT_LINES });
  const rounding = roundingOf(input.country, input.rounding);
  const withholding = withholdingRate(input.country, input.withholdingPercentage);
  const text = (value: Decimal) => value.toFixed(precision);

  taxedUnderOneSystem(input);

  const charged: Charged[] = [];
  const lines: LineAmounts[] = [];
  const grosses: Decimal[] = [];
  const discounts: Decimal[] = [];
  const withheldNets: Decimal[] = [];
  input.lines.forEach((line, index) => {
    const n = index + 1;
    const quantity = lineNumber(n, 'totalQuantity', line.quantity, QUANTITY);
    const unitPrice = lineNumber(n, 'unitPrice', line.unitPrice, PRICE);
    const discountPercent = percentage(n, 'firstDiscount', line.discountPercent);
    const given = line.givenAmounts && { gross: new Decimal(line.givenAmounts.totalGross), net: new Decimal(line.givenAmounts.totalNet) };
    assert(!given || (given.gross.decimalPlaces() <= precision && given.net.decimalPlaces() <= precision), `line ${n}: given amounts of more than ${precision} decimals`);
    const gross = given ? given.gross : roundAmount(quantity.times(unitPrice), precision);
    if (gross.abs().gt(MAX_AMOUNT)) fail(TaxErrors.invalidTaxLine, { line: n, field: 'totalGross', reason: Reasons.amountRange });
    const secondPercent = percentage(n, 'secondDiscount', line.secondDiscountPercent);
    const discount = given ? gross.minus(given.net) : secondPercent.isZero()
      ? roundAmount(gross.times(discountPercent).dividedBy(100), precision)
      : gross.minus(roundAmount(gross.times(remainderOf(discountPercent)).times(remainderOf(secondPercent)), precision));
    const net = gross.minus(discount);
    const rates = chargedRates(line, input.hasEquivalenceSurcharge === true);
    const withheld = withholding !== undefined && line.subjectToWithholding !== false;
    charged.push({ resolved: line.taxTreatment, net, ...rates });
    grosses.push(gross);
    discounts.push(discount);
    if (withheld) withheldNets.push(net);
    lines.push({
      taxTreatmentCode: line.taxTreatment.treatment.code,
      totalGross: text(gross),
      totalDiscount: text(discount),
      totalNet: text(net),
      vatPercentage: rates.taxPercentage.toString(),
      equivalenceSurchargePercentage: rates.surchargePercentage.toString(),
      withholdingPercentage: withheld ? withholding.percentage : '0',
    });
  });

  // Rows in the order the treatments first appear on the lines; a treatment's lines with recargo (goods) and
  // without (services) are separate rows, so each row's quota is its base times its rates.
  const groups = new Map<string, Charged[]>();
  for (const c of charged) {
    const key = `${c.resolved.treatment.code}${c.surchargePercentage.isZero() ? '' : '+RE'}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  // LINE: each line's amount rounded, then added; DOCUMENT_PER_RATE: the rate applied once to the summed base;
  // DOCUMENT_TOTAL: the rows' exact amounts added and the total rounded once, each row taking its share.
  const members = [...groups.values()];
  const amountsOf = (rate: (c: Charged) => Decimal): Decimal[] => {
    if (rounding.level === 'LINE') return members.map((m) => sum(m.map((c) => percentOf(c.net, rate(c), precision, rounding.mode))));
    const exact = members.map((m) => sum(m.map((c) => c.net)).times(rate(m[0])).dividedBy(100));
    if (rounding.level === 'DOCUMENT_PER_RATE') return exact.map((value) => roundAmount(value, precision, rounding.mode));
    return apportion(exact, roundAmount(sum(exact), precision, rounding.mode), precision);
  };
  const taxAmounts = amountsOf((c) => c.taxPercentage);
  const surchargeAmounts = amountsOf((c) => c.surchargePercentage);
  const rows = members.map((m, i) => {
    const { treatment, tax } = m[0].resolved;
    assert(m.every((c) => c.taxPercentage.eq(m[0].taxPercentage) && c.surchargePercentage.eq(m[0].surchargePercentage)), `treatment ${treatment.code} charges one rate`);
    return {
      base: sum(m.map((c) => c.net)),
      tax: taxAmounts[i],
      surcharge: surchargeAmounts[i],
      row: { treatment, tax, taxPercentage: m[0].taxPercentage, surchargePercentage: m[0].surchargePercentage },
    };
  });
  const withholdingBase = sum(withheldNets);
  const withholdingAmount = withholding ? percentOf(withholdingBase, new Decimal(withholding.percentage), precision, rounding.mode) : ZERO;

  const totalGross = sum(grosses);
  const totalDiscount = sum(discounts);
  const totalNet = totalGross.minus(totalDiscount);
  const totalVatBase = sum(rows.map((r) => r.base));
  const totalVat = sum(rows.map((r) => r.tax));
  const totalFeeSurcharge = sum(rows.map((r) => r.surcharge));
  const totalLiquidNoWithholding = totalNet.plus(totalVat).plus(totalFeeSurcharge);
  const totalLiquid = totalLiquidNoWithholding.minus(withholdingAmount);
  // Every amount the posting stores stays within what an entry may carry, or the document is refused now.
  const withinLimit = (field: string, value: Decimal) => {
    if (value.abs().gt(MAX_AMOUNT)) fail(TaxErrors.documentTotalTooLarge, { field, total: text(value), max: MAX_AMOUNT.toString() });
  };
  const totals = { totalGross, totalDiscount, totalNet, totalVatBase, totalVat, totalFeeSurcharge, totalWithholding: withholdingAmount, totalLiquidNoWithholding, totalLiquid };
  for (const [field, value] of Object.entries(totals)) withinLimit(field, value);
  withinLimit('withholdingBase', withholdingBase);
  for (const r of rows) {
    withinLimit(`${r.row.treatment.code}.taxBase`, r.base);
    withinLimit(`${r.row.treatment.code}.taxAmount`, r.tax);
    withinLimit(`${r.row.treatment.code}.equivalenceSurchargeQuota`, r.surcharge);
  }

  // Invariants: the totals are the sums of their parts, every line's net is in exactly one base.
  assert(totalVatBase.eq(totalNet), 'the VAT bases add up to the net total');
  assert(sum(charged.map((c) => c.net)).eq(totalNet), 'the lines add up to the net total');
  for (const value of [totalGross, totalDiscount, totalVat, totalFeeSurcharge, withholdingAmount, totalLiquid]) {
    assert(value.decimalPlaces() <= precision, `an amount of more than ${precision} decimals: ${value.toString()}`);
  }

  return {
    rounding,
    lines,
    taxes: rows.map(({ base, tax, surcharge, row }) => ({
      taxTreatmentCode: row.treatment.code,
      taxCode: row.tax.code,
      taxType: row.treatment.taxType,
      kind: row.treatment.kind,
      taxPercentage: row.taxPercentage.toString(),
      taxBase: text(base),
      taxAmount: text(tax),
      hasEquivalenceSurcharge: !row.surchargePercentage.isZero(),
      equivalenceSurchargePercentage: row.surchargePercentage.toString(),
      equivalenceSurchargeQuota: text(surcharge),
    })),
    withholdings: withholding && withheldNets.length > 0
      ? [{ taxCode: withholding.code, withholdingPercentage: withholding.percentage, withholdingBase: text(withholdingBase), withholdingAmount: text(withholdingAmount) }]
      : [],
    totals: {
      totalGross: text(totalGross),
      totalDiscount: text(totalDiscount),
      totalNet: text(totalNet),
      totalVatBase: text(totalVatBase),
      totalVat: text(totalVat),
      totalFeeSurcharge: text(totalFeeSurcharge),
      totalWithholding: text(withholdingAmount),
      totalLiquidNoWithholding: text(totalLiquidNoWithholding),
      totalLiquid: text(totalLiquid),
    },
  };
}

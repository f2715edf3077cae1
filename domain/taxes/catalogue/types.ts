/**
 * The shape of a country's tax catalogue (reference data, pure): its taxes (one rate each), its tax
 * treatments (Sage's concept: how a line is taxed) and how the country rounds. The organisation gets its
 * own copy at creation, each row with an id derived from the organisation's (ids.ts), like the chart.
 */
import type { OrganisationCountry } from '../../enums.ts';
import type { RegimeType, RegisterType, TaxGroupCode, TaxTreatmentKind, TaxType } from '../enums.ts';

/** One rate of one tax (Sage's Tax: name, percentage, equivalenceSurchargePercentage, taxType, group). */
export interface TaxRate {
  /** Unique within the country; the id derives from it. */
  code: string;
  name: string;
  taxType: TaxType;
  group: TaxGroupCode;
  /** Decimal text, percent (e.g. '21', '5.5'). */
  percentage: string;
  /** The recargo de equivalencia charged with this rate (ES only; '0' elsewhere). */
  equivalenceSurchargePercentage: string;
  /** Withholding rates (IRPF) are taken from the document's total, not added to it. */
  isWithholding: boolean;
}

/** A tax treatment, with the fields of Sage's TaxTreatment that are knowable (sage-names.md §5). */
export interface TaxTreatmentDefinition {
  /** Unique within the country; the id derives from it. */
  code: string;
  description: string;
  kind: TaxTreatmentKind;
  /** The code of the TaxRate the treatment charges (a 0 % rate for every kind but DOMESTIC). */
  taxCode: string;
  taxType: TaxType;
  registerType: RegisterType;
  regimeType: RegimeType;
  isIntracomunity: boolean;
  isService: boolean;
  /** The customer in recargo de equivalencia pays the rate's surcharge on lines of this treatment. */
  hasSurcharge: boolean;
  isImplicit: boolean;
  /** ES régimen especial del criterio de caja (LIVA arts. 163 decies ff.) applies to domestic supplies. */
  admitsCashVAT: boolean;
  hasPercentageCompensation: boolean;
  /** ES modelo 349 key (E goods, S services) for intra-EU supplies; null elsewhere. */
  intraKey: string | null;
  /** ES SII "clave de régimen especial o trascendencia" (01 general, 02 export); null elsewhere. */
  transcendenceKey: string | null;
  /** Codes of posting lines of the country's master chart (domain/reference/charts.ts). */
  outputAccountCode: string;
  inputAccountCode: string;
}

/**
 * Where a tax amount is rounded: on each line; once per rate on the whole document; or once on the document's
 * total tax (each rate's row then takes its share of the rounded total, so the rows still add up to it).
 */
export type RoundingLevel = 'LINE' | 'DOCUMENT_PER_RATE' | 'DOCUMENT_TOTAL';
/** HALF_AWAY_FROM_ZERO: to the nearest cent, halves away from zero; DOWN: fractions of a cent dropped. */
export type RoundingMode = 'HALF_AWAY_FROM_ZERO' | 'DOWN';

export interface TaxRounding {
  level: RoundingLevel;
  /** The mode of tax, surcharge and withholding amounts; line amounts always round half away from zero. */
  mode: RoundingMode;
  source: string;
}

export interface TaxCatalogue {
  country: OrganisationCountry;
  /** The country's rule, what a document uses unless told. */
  rounding: TaxRounding;
  /** Every rounding the country's law allows a document (the rule first); any other is refused. */
  roundingOptions: readonly TaxRounding[];
  taxes: readonly TaxRate[];
  treatments: readonly TaxTreatmentDefinition[];
  /** US/CA: sales tax has no national rate; the organisation sets its own (OrganisationSalesTaxRate). */
  ratesSetByOrganisation: boolean;
  /** Account a customer's withholding (IRPF) is posted to by the seller, when the country has one. */
  withholdingAccountCode: string | null;
}

/** A sales tax rate an organisation sets (US state/local sales tax, CA GST/HST/PST): no catalogue value. */
export interface OrganisationSalesTaxRate {
  code: string;
  name: string;
  /** e.g. 'US-WA', 'CA-ON'. */
  jurisdiction: string;
  percentage: string;
}

/** An organisation's sales tax rate as it stands (commands/taxes): its percentages over time and whether it is the default. */
export interface SalesTaxRateInForce extends OrganisationSalesTaxRate {
  isDefault: boolean;
  /** Each percentage from its first day (null: from the start), oldest first. */
  history: readonly { validFrom: string | null; percentage: string }[];
}

/** A treatment with the rate it charges: what the calculation takes for each line. */
export interface ResolvedTreatment {
  /** The country whose catalogue (or organisation's sales tax rate) the treatment is of. */
  country: OrganisationCountry;
  treatment: TaxTreatmentDefinition;
  tax: TaxRate;
}

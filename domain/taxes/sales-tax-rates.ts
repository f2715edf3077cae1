/**
 * The Taxes aggregate: an organisation's own sales tax rates, where its country's catalogue has none
 * (ratesSetByOrganisation: US state and local sales tax, CA GST/HST/PST). One stream per organisation,
 * `Taxes-<id>`, apart from the Organisation's: a rate is sales reference data the Sales commands hold while
 * pricing, and holding the Organisation stream would serialise them with every ledger command.
 *
 * A rate keeps its history: each change of percentage applies from its validFrom on, and a document takes the
 * percentage in force at its date. A document records the percentage it was computed with in its own events,
 * so a change never rewrites a recorded document; still a change is refused from a date a posted document
 * using the rate is dated on or after (its posted tax would disagree with the rate of its date). Deleting a
 * rate a document uses is refused. Exactly one rate is the default (what a line without its own takes).
 * Pure decider.
 */
import type { OrganisationState } from '../accounting/organisation.ts';
import { fail, unknownEvent } from '../errors.ts';
import { salesTaxTreatment, taxCatalogueFor } from './catalogue/index.ts';
import type { SalesTaxRateInForce } from './catalogue/types.ts';
import type { TaxType } from './enums.ts';
import { TaxErrors } from './errors.ts';

export interface SalesTaxRateFields {
  code: string;
  name: string;
  /** ISO 3166-2 subdivision: 'US-WA', 'CA-ON'. */
  jurisdiction: string;
  percentage: string;
  isDefault: boolean;
  /** First day the percentage applies (null: from the start). */
  validFrom: string | null;
}

export type TaxesEvent =
  | { type: 'SalesTaxRateCreated'; data: { taxId: string; at: string } & SalesTaxRateFields }
  | { type: 'SalesTaxRateUpdated'; data: { taxId: string; at: string } & SalesTaxRateFields }
  | { type: 'SalesTaxRateDeleted'; data: { taxId: string; code: string; at: string } };

export const TAXES_EVENT_TYPES = ['SalesTaxRateCreated', 'SalesTaxRateUpdated', 'SalesTaxRateDeleted'] as const satisfies readonly TaxesEvent['type'][];

export interface TaxesState {
  /** By tax id (taxIdOf(organisation, code)). */
  rates: Map<string, SalesTaxRateInForce>;
}

export const initialTaxesState = (): TaxesState => ({ rates: new Map() });

export function evolveTaxes(state: TaxesState, event: TaxesEvent): TaxesState {
  const rates = new Map(state.rates);
  switch (event.type) {
    case 'SalesTaxRateCreated':
    case 'SalesTaxRateUpdated': {
      const { taxId, at: _a, validFrom, ...fields } = event.data;
      const before = rates.get(taxId)?.history ?? [];
      const changed = before.at(-1)?.percentage !== fields.percentage;
      const history = changed ? [...before, { validFrom, percentage: fields.percentage }] : before;
      if (fields.isDefault) for (const [id, r] of rates) if (r.isDefault) rates.set(id, { ...r, isDefault: false });
      rates.set(taxId, { ...fields, history });
      return { rates };
    }
    case 'SalesTaxRateDeleted':
      rates.delete(event.data.taxId);
      return { rates };
    default:
      return unknownEvent('Taxes', event);
  }
}

/** What the decider is told of the organisation's documents using a rate (the Sales stream, held). */
export interface RateUsage {
  /** Whether any document records a line of the rate's treatment. */
  used: boolean;
  /** The latest date of a posted document using it (null: none). */
  lastPostedDate: string | null;
  /** The code of a product naming the rate's treatment (null: none, or not asked). */
  productCode: string | null;
}

export type TaxesCommand =
  | { type: 'CreateSalesTaxRate'; taxId: string; taxType: TaxType | null; fields: Omit<SalesTaxRateFields, 'validFrom'> & { validFrom: string | null }; now: string }
  | { type: 'UpdateSalesTaxRate'; taxId: string; taxType: TaxType | null; changes: Partial<Omit<SalesTaxRateFields, 'code'>>; usage: RateUsage; now: string }
  | { type: 'DeleteSalesTaxRate'; taxId: string; usage: RateUsage; now: string };

function checkCountry(organisation: OrganisationState): 'US' | 'CA' {
  const country = organisation.country!;
  if (!taxCatalogueFor(country).ratesSetByOrganisation) fail(TaxErrors.taxesAreTheCountrys, { country });
  return country as 'US' | 'CA';
}

/** A rate is the organisation's country's: its invoices post to that country's sales tax account. */
function checkJurisdiction(country: 'US' | 'CA', jurisdiction: string): void {
  if (!jurisdiction.startsWith(`${country}-`)) fail(TaxErrors.jurisdictionOfAnotherCountry, { jurisdiction, country });
}

export function decideTaxes(c: TaxesCommand, state: TaxesState, organisation: OrganisationState): TaxesEvent[] {
  const country = checkCountry(organisation);
  // Sales tax is no VAT of a legislation Sage names: its tax type is NOT_SPECIFIED, never another.
  if ('taxType' in c && c.taxType !== null && c.taxType !== 'NOT_SPECIFIED') fail(TaxErrors.salesTaxTypeNotSpecified, { taxType: c.taxType });
  const at = c.now;
  switch (c.type) {
    case 'CreateSalesTaxRate': {
      const f = c.fields;
      // The catalogue's own rows (EXPORT0) share the code's derived tax id: a rate coded like one would be a second row with its id.
      const taken = [...state.rates.values()].some((r) => r.code.toLowerCase() === f.code.toLowerCase()) || taxCatalogueFor(country).taxes.some((t) => t.code.toLowerCase() === f.code.toLowerCase());
      if (taken) fail(TaxErrors.salesTaxRateCodeTaken, { code: f.code });
      checkJurisdiction(country, f.jurisdiction);
      salesTaxTreatment(country, f);
      // The first rate is the default: a line always has one to take.
      return [{ type: 'SalesTaxRateCreated', data: { taxId: c.taxId, ...f, isDefault: f.isDefault || state.rates.size === 0, at } }];
    }
    case 'UpdateSalesTaxRate': {
      const rate = state.rates.get(c.taxId) ?? fail(TaxErrors.salesTaxRateNotFound, { id: c.taxId });
      if (c.changes.isDefault === false && rate.isDefault) fail(TaxErrors.salesTaxDefaultRequired, { code: rate.code });
      if (c.changes.jurisdiction !== undefined) checkJurisdiction(country, c.changes.jurisdiction);
      const { history, ...current } = rate;
      const next = { ...current, ...c.changes, isDefault: c.changes.isDefault ?? rate.isDefault };
      const last = history.at(-1)!;
      let validFrom = last.validFrom;
      if (next.percentage !== last.percentage) {
        salesTaxTreatment(country, next);
        validFrom = c.changes.validFrom ?? at.slice(0, 10);
        const notBefore = [last.validFrom, c.usage.lastPostedDate].filter((d): d is string => d !== null).sort().at(-1);
        if (notBefore && validFrom <= notBefore) fail(TaxErrors.salesTaxRateChangeTooEarly, { code: rate.code, validFrom, date: notBefore });
      }
      return [{ type: 'SalesTaxRateUpdated', data: { taxId: c.taxId, ...next, validFrom, at } }];
    }
    case 'DeleteSalesTaxRate': {
      const rate = state.rates.get(c.taxId) ?? fail(TaxErrors.salesTaxRateNotFound, { id: c.taxId });
      if (c.usage.used) fail(TaxErrors.salesTaxRateInUse, { code: rate.code });
      // A product naming it would price with a treatment that no longer exists.
      if (c.usage.productCode !== null) fail(TaxErrors.salesTaxRateNamedByProduct, { code: rate.code, product: c.usage.productCode });
      if (rate.isDefault && state.rates.size > 1) fail(TaxErrors.salesTaxDefaultRequired, { code: rate.code });
      return [{ type: 'SalesTaxRateDeleted', data: { taxId: c.taxId, code: rate.code, at } }];
    }
    default:
      return unknownEvent('Taxes', c);
  }
}

/** The statement models of each organisation country (GB and IE share FRS 102; US and CA share US GAAP). */
import { buildModels, type StatementModel, type StatementsSpec } from '../../reports/statement-model.ts';
import { indicatorPrefixes, type IndicatorSpec, type IndicatorTerm } from '../../reports/indicators.ts';
import type { AccountingIndicatorType } from '../../reports/enums.ts';
import { ES_INDICATORS, ES_VARIANTS, esSpec } from './es.ts';
import { FR_INDICATORS, FR_VARIANTS, frSpec } from './fr.ts';
import { DE_INDICATORS, DE_VARIANTS, deSpec } from './de.ts';
import { GB_INDICATORS, GB_VARIANTS, gbSpec } from './gb.ts';
import { US_INDICATORS, US_VARIANTS, usSpec } from './us.ts';

export interface CountryStatements {
  /** The default first. */
  variants: readonly string[];
  models: Readonly<Record<string, { BALANCE_SHEET: StatementModel; PROFIT_AND_LOSS: StatementModel }>>;
  indicators: Partial<Record<AccountingIndicatorType, readonly IndicatorTerm[]>>;
  /** What each indicator was defined as (its lines, or its prefixes where no line fits). */
  indicatorSpecs: Partial<Record<AccountingIndicatorType, IndicatorSpec>>;
}

function country(
  variants: readonly string[],
  spec: (variant: string) => StatementsSpec,
  indicators: Partial<Record<AccountingIndicatorType, IndicatorSpec>>,
): CountryStatements {
  const models = Object.fromEntries(variants.map((variant) => [variant, buildModels(spec(variant))]));
  const main = models[variants[0]!]!.BALANCE_SHEET;
  const derived = Object.fromEntries(Object.entries(indicators).map(([type, spec]) => [type, Object.freeze(indicatorPrefixes(main, spec!))]));
  return Object.freeze({ variants: Object.freeze([...variants]), models: Object.freeze(models), indicators: Object.freeze(derived), indicatorSpecs: indicators });
}

const ES = country(ES_VARIANTS, esSpec, ES_INDICATORS);
const FR = country(FR_VARIANTS, frSpec, FR_INDICATORS);
const DE = country(DE_VARIANTS, deSpec, DE_INDICATORS);
const GB = country(GB_VARIANTS, gbSpec, GB_INDICATORS);
const US = country(US_VARIANTS, usSpec, US_INDICATORS);

export const STATEMENTS_BY_COUNTRY: Readonly<Record<string, CountryStatements>> = Object.freeze({ ES, FR, DE, GB, IE: GB, US, CA: US });

/** The statement models of each organisation country (GB and IE share FRS 102; US and CA share US GAAP). */
import { buildModel, pairModels, type ModelSpec, type StatementModel } from '../../reports/statement-model.ts';
import { indicatorPrefixes, type IndicatorSpec, type IndicatorTerm } from '../../reports/indicators.ts';
import type { AccountingIndicatorType } from '../../reports/enums.ts';
import { ES_INDICATORS, ES_VARIANTS, esSpecs } from './es.ts';
import { FR_INDICATORS, FR_VARIANTS, frSpecs } from './fr.ts';
import { DE_INDICATORS, DE_VARIANTS, deSpecs } from './de.ts';
import { GB_INDICATORS, GB_VARIANTS, gbSpecs } from './gb.ts';
import { US_INDICATORS, US_VARIANTS, usSpecs } from './us.ts';

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
  specs: (variant: string) => { balanceSheet: ModelSpec; profitAndLoss: ModelSpec },
  indicators: Partial<Record<AccountingIndicatorType, IndicatorSpec>>,
): CountryStatements {
  const models = Object.fromEntries(variants.map((variant) => {
    const { balanceSheet, profitAndLoss } = specs(variant);
    return [variant, pairModels(buildModel(balanceSheet), buildModel(profitAndLoss))];
  }));
  const main = models[variants[0]!]!.BALANCE_SHEET;
  const derived = Object.fromEntries(Object.entries(indicators).map(([type, spec]) => [type, Object.freeze(indicatorPrefixes(main, spec!))]));
  return Object.freeze({ variants: Object.freeze([...variants]), models: Object.freeze(models), indicators: Object.freeze(derived), indicatorSpecs: indicators });
}

const ES = country(ES_VARIANTS, esSpecs, ES_INDICATORS);
const FR = country(FR_VARIANTS, frSpecs, FR_INDICATORS);
const DE = country(DE_VARIANTS, deSpecs, DE_INDICATORS);
const GB = country(GB_VARIANTS, gbSpecs, GB_INDICATORS);
const US = country(US_VARIANTS, usSpecs, US_INDICATORS);

export const STATEMENTS_BY_COUNTRY: Readonly<Record<string, CountryStatements>> = Object.freeze({ ES, FR, DE, GB, IE: GB, US, CA: US });

/** Helpers the country files share: a rate row, and the treatments every VAT country has. */
import type { TaxGroupCode, TaxTreatmentKind, TaxType } from '../enums.ts';
import type { TaxCatalogue, TaxRate, TaxRounding, TaxTreatmentDefinition } from './types.ts';

export function rate(code: string, name: string, taxType: TaxType, group: TaxGroupCode, percentage: string, equivalenceSurchargePercentage = '0'): TaxRate {
  return { code, name, taxType, group, percentage, equivalenceSurchargePercentage, isWithholding: taxType === 'IRPF' };
}

/** What one tax of a country has in common across its treatments. */
export interface TaxSystem {
  taxType: TaxType;
  outputAccountCode: string;
  inputAccountCode: string;
  /** Domestic lines carry the recargo de equivalencia for customers in that regime (ES IVA only). */
  surcharge: boolean;
  cashVat: boolean;
  /** Spanish report keys (modelo 349 intraKey, SII transcendenceKey). */
  spanishKeys: boolean;
}

const INTRA_KEY: Partial<Record<TaxTreatmentKind, string>> = { INTRA_EU_GOODS: 'E', INTRA_EU_SERVICES: 'S' };
const TRANSCENDENCE_KEY: Partial<Record<TaxTreatmentKind, string>> = { DOMESTIC: '01', EXEMPT: '01', INTRA_EU_GOODS: '01', INTRA_EU_SERVICES: '01', EXPORT: '02' };

/** A treatment of `system`: DOMESTIC charges `tax`; the other kinds name the system's 0 % (exempt) rate. */
export function treatment(system: TaxSystem, kind: TaxTreatmentKind, code: string, description: string, tax: TaxRate): TaxTreatmentDefinition {
  const domestic = kind === 'DOMESTIC';
  return {
    code,
    description,
    kind,
    taxCode: tax.code,
    taxType: system.taxType,
    // Domestic and exempt treatments serve both registers; deliveries abroad are sales only.
    registerType: domestic || kind === 'EXEMPT' ? 'BOTH' : 'ISSUED',
    regimeType: 'GENERAL',
    isIntracomunity: kind === 'INTRA_EU_GOODS' || kind === 'INTRA_EU_SERVICES',
    isService: kind === 'INTRA_EU_SERVICES' || kind === 'OUTSIDE_SCOPE',
    hasSurcharge: domestic && system.surcharge,
    isImplicit: false,
    admitsCashVAT: domestic && system.cashVat,
    hasPercentageCompensation: false,
    intraKey: system.spanishKeys ? INTRA_KEY[kind] ?? null : null,
    transcendenceKey: system.spanishKeys ? TRANSCENDENCE_KEY[kind] ?? null : null,
    outputAccountCode: system.outputAccountCode,
    inputAccountCode: system.inputAccountCode,
  };
}

/** One DOMESTIC treatment per charged rate, coded NAT-<tax code>. */
export function domesticTreatments(system: TaxSystem, taxes: readonly TaxRate[], describe: (tax: TaxRate) => string): TaxTreatmentDefinition[] {
  return taxes.filter((t) => t.taxType === system.taxType && t.group !== 'EXEMPT').map((t) => treatment(system, 'DOMESTIC', `NAT-${t.code}`, describe(t), t));
}

/** A country whose law allows one rounding: its rule, and no other option. */
export function onlyRounding(rounding: TaxRounding): Pick<TaxCatalogue, 'rounding' | 'roundingOptions'> {
  return { rounding, roundingOptions: [rounding] };
}

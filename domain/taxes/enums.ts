/**
 * The taxes' enumerations, each written once (Sage's values where Sage names them: sage-names.md §4.1).
 * The taxes module serves TaxType, RegimeType and RegisterType as GraphQL enums (TAX_ENUMS).
 */
import { RegisterType as InvoiceRegisterType } from '../reference/invoice-types.ts';

/** Sage's TaxType: the tax a rate belongs to, per legislation (IVA in Spain, TVA in France, UST in Germany ...). */
export const TaxType = ['NOT_SPECIFIED', 'DOM', 'FOREIGN', 'IGIC', 'IPSI', 'IRPF', 'IVA', 'IVA_PT', 'TVA', 'UST'] as const;
export type TaxType = (typeof TaxType)[number];

/** Sage's RegisterType: which VAT register (issued = sales, received = purchases) a treatment is used in. */
export const RegisterType = ['UNDEFINED', 'BOTH', 'ISSUED', 'RECEIVED'] as const;
export type RegisterType = (typeof RegisterType)[number];

/** Sage's RegimeType ("always fill in GENERAL"). */
export const RegimeType = ['GENERAL'] as const;
export type RegimeType = (typeof RegimeType)[number];

/**
 * Ours: how a treatment taxes a line. It decides the calculation: DOMESTIC charges the tax (and the
 * surcharge where the customer is in recargo de equivalencia); every other kind counts the base and charges
 * no tax (exempt, intra-EU deliveries where the customer self-assesses, exports, outside the scope).
 */
export const TaxTreatmentKind = ['DOMESTIC', 'EXEMPT', 'INTRA_EU_GOODS', 'INTRA_EU_SERVICES', 'EXPORT', 'OUTSIDE_SCOPE'] as const;
export type TaxTreatmentKind = (typeof TaxTreatmentKind)[number];

/** Ours: the rate class a tax belongs to (the tax group a product names; the territory picks the tax). */
export const TaxGroupCode = [
  'STANDARD', 'REDUCED', 'SECOND_REDUCED', 'SUPER_REDUCED', 'ZERO', 'INCREASED', 'SPECIAL_INCREASED', 'EXEMPT', 'WITHHOLDING',
] as const;
export type TaxGroupCode = (typeof TaxGroupCode)[number];

/**
 * By GraphQL name. One GraphQL RegisterType serves both fields named so: a treatment's (Sage's values) and an
 * invoice type's (domain/reference/invoice-types.ts, whose INVESTMENT_GOODS and INTRA_COMMUNITY are ours).
 */
export const TAX_ENUMS = { TaxType, RegisterType: [...new Set([...RegisterType, ...InvoiceRegisterType])], RegimeType } as const;

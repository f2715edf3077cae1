/**
 * Enumerations no single business area owns (each area's own are in domain/<area>/enums.ts). The spec
 * names them without values; the values are ours (DESIGN.md leaves them open).
 */
export const OrganisationCountry = ['ES', 'FR', 'DE', 'GB', 'IE', 'US', 'CA'] as const;
export type OrganisationCountry = (typeof OrganisationCountry)[number];

/** From when a payment term line's days run. */
export const PaymentTermLineCondition = ['INVOICE_DATE', 'END_OF_MONTH', 'DELIVERY_DATE'] as const;
export type PaymentTermLineCondition = (typeof PaymentTermLineCondition)[number];

/** PERCENTAGE: `value` percent of the total; REMAINDER: what the other lines leave (last line only). */
export const PaymentTermLineType = ['PERCENTAGE', 'REMAINDER'] as const;
export type PaymentTermLineType = (typeof PaymentTermLineType)[number];

export const PaymentMethodType = ['BANK_TRANSFER', 'DIRECT_DEBIT', 'CASH', 'CHECK', 'CARD', 'PROMISSORY_NOTE', 'OTHER'] as const;
export type PaymentMethodType = (typeof PaymentMethodType)[number];

export const ProductType = ['GOODS', 'SERVICE'] as const;
export type ProductType = (typeof ProductType)[number];

/**
 * The shared settings' enumerations, each written once: the GraphQL enum (modules/settings.ts), the
 * inputs' validation (commands/settings/inputs.ts) and the read models take them from here.
 */

/** From when a payment term line's days run. */
export const PaymentTermLineCondition = ['INVOICE_DATE', 'END_OF_MONTH', 'DELIVERY_DATE'] as const;
export type PaymentTermLineCondition = (typeof PaymentTermLineCondition)[number];

/** PERCENTAGE: `value` percent of the total; REMAINDER: what the other lines leave (last line only). */
export const PaymentTermLineType = ['PERCENTAGE', 'REMAINDER'] as const;
export type PaymentTermLineType = (typeof PaymentTermLineType)[number];

export const PaymentMethodType = ['BANK_TRANSFER', 'DIRECT_DEBIT', 'CASH', 'CHECK', 'CARD', 'PROMISSORY_NOTE', 'OTHER'] as const;
export type PaymentMethodType = (typeof PaymentMethodType)[number];

/** By GraphQL name. */
export const SETTINGS_ENUMS = { PaymentTermLineCondition, PaymentTermLineType, PaymentMethodType } as const;

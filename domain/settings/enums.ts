/**
 * The shared settings' enumerations, each written once, with Sage's values: the GraphQL enum
 * (modules/settings.ts), the inputs' validation (commands/settings/inputs.ts) and the read models take
 * them from here. Values stored before issue 17 are read through domain/settings/settings-upcasters.ts.
 */

/** From when a payment term line's days run: the document's date (DAY_OF_PAYMENT), or the end of its month. */
export const PaymentTermLineCondition = ['NONE', 'DAY_OF_PAYMENT', 'END_OF_MONTH'] as const;
export type PaymentTermLineCondition = (typeof PaymentTermLineCondition)[number];

/**
 * Which share of the total a line is: PERCENTAGE `value` percent, FIXED_AMOUNT `value` in the document's
 * currency, REMAINING_AMOUNT what the other lines leave (the last line). NONE is Sage's unset value.
 */
export const PaymentTermLineType = ['NONE', 'FIXED_AMOUNT', 'PERCENTAGE', 'REMAINING_AMOUNT'] as const;
export type PaymentTermLineType = (typeof PaymentTermLineType)[number];

/** A payment method (bank or cash account): Sage's PaymentMethodType. */
export const PaymentMethodType = ['NOT_SPECIFIED', 'BANK_ACCOUNT', 'CASH'] as const;
export type PaymentMethodType = (typeof PaymentMethodType)[number];

/** A payment mean (transfer, cheque...): Sage's PaymentMean.type, a different enumeration. */
export const PaymentMeanType = ['UNDEFINED', 'PAYMENT_IN'] as const;
export type PaymentMeanType = (typeof PaymentMeanType)[number];

/** By GraphQL name. */
export const SETTINGS_ENUMS = { PaymentTermLineCondition, PaymentTermLineType, PaymentMethodType, PaymentMeanType } as const;

/**
 * Enumerations no single business area owns (each area's own are in domain/<area>/enums.ts). The spec
 * names them without values; the values are ours (DESIGN.md leaves them open).
 */
export const OrganisationCountry = ['ES', 'FR', 'DE', 'GB', 'IE', 'US', 'CA'] as const;
export type OrganisationCountry = (typeof OrganisationCountry)[number];

// Parties and shared settings (spec 2.6). Values are ours, as for the enumerations above.
export const CustomerType = ['COMPANY', 'INDIVIDUAL', 'SELF_EMPLOYED', 'PUBLIC_ADMINISTRATION'] as const;
export type CustomerType = (typeof CustomerType)[number];

export const CustomerStatus = ['PROSPECT', 'ACTIVE', 'BLOCKED'] as const;
export type CustomerStatus = (typeof CustomerStatus)[number];

/** Suppliers are modelled on customers (the spec does not show them): the same kinds of party and states. */
export const SupplierType = CustomerType;
export const SupplierStatus = CustomerStatus;

export const EmployeeStatus = ['ACTIVE', 'ON_LEAVE', 'TERMINATED'] as const;
export type EmployeeStatus = (typeof EmployeeStatus)[number];

/** Languages documents are printed in (ISO 639-1 codes, upper case). */
export const LanguageType = ['ES', 'EN', 'FR', 'DE', 'IT', 'PT', 'NL', 'CA', 'EU', 'GL'] as const;
export type LanguageType = (typeof LanguageType)[number];

export const Courtesy = ['MR', 'MRS', 'MS', 'MX', 'DR'] as const;
export type Courtesy = (typeof Courtesy)[number];

export const EmailUsage = ['GENERAL', 'INVOICING', 'ORDERS', 'DELIVERY', 'PAYMENTS', 'MARKETING'] as const;
export type EmailUsage = (typeof EmailUsage)[number];

export const PhoneType = ['LANDLINE', 'MOBILE', 'FAX', 'OTHER'] as const;
export type PhoneType = (typeof PhoneType)[number];

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

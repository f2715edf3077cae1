/**
 * The parties' enumerations (spec 2.6), named by the spec without values: the values are ours
 * (DESIGN.md leaves them open). The GraphQL SDL, zod validation and read models derive from these arrays.
 */
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

/**
 * Parties as read models: Customer, Employee and their addresses, contacts, e-mails, phones, social
 * media and payment term lines with the fields of the spec's section 2.6, and Supplier modelled on
 * Customer. Where the spec gives two types one shape (CompanyContactEmail / EmployeeContactEmail...),
 * one factory defines both. Children point to their party with hidden `partyId` columns.
 */
import { SourceType } from '../../domain/accounting/enums.ts';
import {
  Courtesy, CustomerStatus, CustomerType, EmailUsage, EmployeeStatus, LanguageType, PhoneType, SupplierStatus, SupplierType,
} from '../../domain/parties/enums.ts';
import { f, type Field, type Resource } from '../engine/resource.ts';
import { AccountingAccount, Country } from '../accounting/read-models.ts';
import { BusinessArea, DocumentType, JobArea, paymentTermLines } from '../settings/read-models.ts';
import { SalesDiscountModels, SalesTariffModels } from '../catalog/price-list-models.ts';

const child = (typeName: string, table: string, fields: Field[], extraIndex: string[][] = []): Resource => ({
  typeName,
  table,
  scope: 'organisation',
  indexes: [['party_id'], ...extraIndex],
  fields: [...fields, f.uuid('partyId', { hidden: true }), f.int('position', { hidden: true })],
});

const audit = () => [f.dateTime('creationDate'), f.dateTime('modificationDate')];

function address(typeName: string, table: string, withFlags: boolean): Resource {
  const flags = withFlags ? [f.bool('isDefaultDeliveryAddress'), f.bool('isDeliveryAddress'), f.bool('isMainAddress')] : [];
  return child(typeName, table, [
    f.string('city'),
    f.ref('country', 'Country', () => Country, 'countryId'),
    f.uuid('countryId'),
    f.string('countryIsoCodeAlpha2'),
    f.string('countryName'),
    ...audit(),
    f.string('firstLine'),
    f.uuid('id'),
    ...flags,
    f.string('name'),
    f.string('province'),
    f.string('secondLine'),
    f.string('zipCode'),
  ]);
}

/** A contact's e-mails, phones and social media: children of the contact (and of the party, for erasure). */
function contactParts(prefix: string, tablePrefix: string) {
  const part = (suffix: string, fields: Field[]) => child(`${prefix}${suffix}`, `${tablePrefix}_${suffix.replace(/(?<!^)[A-Z]/g, (c) => `_${c}`).toLowerCase()}s`, [...fields, f.uuid('contactId', { hidden: true })], [['contact_id']]);
  return {
    email: part('Email', [...audit(), f.string('emailAddress'), f.uuid('id'), f.bool('isDefault'), f.enum('usage', 'EmailUsage', EmailUsage)]),
    phone: part('Phone', [...audit(), f.uuid('id'), f.bool('isDefault'), f.string('number'), f.enum('type', 'PhoneType', PhoneType)]),
    socialMedia: part('SocialMedia', [...audit(), f.uuid('id'), f.string('link'), f.string('name')]),
  };
}

function contact(typeName: string, table: string, parts: ReturnType<typeof contactParts>, withPartyDefaults: boolean): Resource {
  const defaults = withPartyDefaults ? [f.bool('isDefaultCustomer'), f.bool('isDefaultSupplier')] : [];
  return child(typeName, table, [
    f.enum('courtesy', 'Courtesy', Courtesy),
    f.dateTime('creationDate'),
    f.children('emails', parts.email.typeName, () => parts.email, 'contactId', 'position'),
    f.uuid('id'),
    f.bool('isDefault'),
    ...defaults,
    f.ref('jobArea', 'JobArea', () => JobArea, 'jobAreaId'),
    f.uuid('jobAreaId'),
    f.string('jobName'),
    f.dateTime('modificationDate'),
    f.string('name'),
    f.children('phones', parts.phone.typeName, () => parts.phone, 'contactId', 'position'),
    f.children('socialMedias', parts.socialMedia.typeName, () => parts.socialMedia, 'contactId', 'position'),
    f.string('surname'),
  ]);
}

export const CompanyAddress = address('CompanyAddress', 'company_addresses', true);
export const EmployeeAddress = address('EmployeeAddress', 'employee_addresses', false);
export const CompanyContactParts = contactParts('CompanyContact', 'company_contact');
export const EmployeeContactParts = contactParts('EmployeeContact', 'employee_contact');
export const CompanyContact = contact('CompanyContact', 'company_contacts', CompanyContactParts, true);
export const EmployeeContact = contact('EmployeeContact', 'employee_contacts', EmployeeContactParts, false);
export const CustomerPaymentTermLine = paymentTermLines('CustomerPaymentTermLine', 'customer_payment_term_lines', 'partyId');
export const SupplierPaymentTermLine = paymentTermLines('SupplierPaymentTermLine', 'supplier_payment_term_lines', 'partyId');

const account = (name: string) => [f.ref(name, 'AccountingAccount', () => AccountingAccount, `${name}Id`), f.uuid(`${name}Id`)];
const gdpr = () => [f.bool('gdprApplied'), f.dateTime('gdprAppliedDate')];
const party = (r: Omit<Resource, 'scope' | 'indexes' | 'defaultOrder'>): Resource => ({ ...r, scope: 'organisation', indexes: [['organisation_id', 'code']], defaultOrder: ['code'] });

/** What customers and suppliers both have (the spec models Supplier on Customer). */
const companyFields = (terms: Resource): Field[] => [
  f.children('addresses', 'CompanyAddress', () => CompanyAddress, 'partyId', 'position'),
  f.ref('businessArea', 'BusinessArea', () => BusinessArea, 'businessAreaId'),
  f.uuid('businessAreaId'),
  f.string('code'),
  f.string('comments'),
  f.children('contacts', 'CompanyContact', () => CompanyContact, 'partyId', 'position'),
  f.string('countryAcronym'),
  f.dateTime('creationDate'),
  ...account('defaultAccountingAccount'),
  ...account('defaultPrepaymentAccountingAccount'),
  f.bool('disabled'),
  f.dateTime('disabledDate'),
  f.decimal('discount'),
  f.string('documentId'),
  f.enum('documentLanguage', 'LanguageType', LanguageType),
  f.ref('documentType', 'DocumentType', () => DocumentType, 'documentTypeId'),
  f.uuid('documentTypeId'),
  ...gdpr(),
  f.bool('hasEquivalenceSurcharge'),
  f.uuid('id'),
  f.dateTime('modificationDate'),
  f.children('paymentTermLines', terms.typeName, () => terms, 'partyId', 'order'),
  f.string('socialName'),
  f.enum('sourceType', 'SourceType', SourceType),
  f.string('tradeName'),
  f.string('vatNumber'),
  f.string('viesCode'),
];

/** The shared fields and a party's own, in the spec's (alphabetical) order: GraphQL types and table columns follow it. */
const byName = (fields: Field[]): Field[] => [...fields].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

export const Customer: Resource = party({
  typeName: 'Customer',
  table: 'customers',
  query: { field: 'customers', connection: 'CustomersConnection' },
  rest: { path: '/customers', displayedAs: (r) => `${r.code} ${r.socialName ?? ''}`.trim() },
  fields: byName([
    ...companyFields(CustomerPaymentTermLine),
    f.bool('blockDeliveryNoteEnabled'),
    f.bool('blockInvoiceEnabled'),
    f.bool('blockOrderEnabled'),
    f.enum('customerType', 'CustomerType', CustomerType),
    f.string('eInvoicingAddress'),
    f.string('eInvoicingAddressType'),
    f.string('nafApeCode'),
    f.bool('nonIdentifiedCustomer'),
    f.bool('printNameOnPdf'),
    f.ref('salesDiscountGroup', 'SalesDiscountGroup', () => SalesDiscountModels.list, 'salesDiscountGroupId'),
    f.uuid('salesDiscountGroupId'),
    f.ref('salesTariff', 'SalesTariff', () => SalesTariffModels.list, 'salesTariffId'),
    f.uuid('salesTariffId'),
    f.string('specialMention'),
    f.enum('status', 'CustomerStatus', CustomerStatus),
  ]),
});

/** Modelled on Customer: what a supplier of the same ERP has (no sales blocks, tariffs or e-invoicing). */
export const Supplier: Resource = party({
  typeName: 'Supplier',
  table: 'suppliers',
  query: { field: 'suppliers', connection: 'SuppliersConnection' },
  rest: { path: '/suppliers', displayedAs: (r) => `${r.code} ${r.socialName ?? ''}`.trim() },
  fields: byName([
    ...companyFields(SupplierPaymentTermLine),
    ...account('defaultExpenseAccountingAccount'),
    f.enum('status', 'SupplierStatus', SupplierStatus),
    f.enum('supplierType', 'SupplierType', SupplierType),
  ]),
});

export const Employee: Resource = party({
  typeName: 'Employee',
  table: 'employees',
  query: { field: 'employees', connection: 'EmployeesConnection' },
  rest: { path: '/employees', displayedAs: (r) => `${r.code} ${r.name ?? ''}`.trim() },
  fields: [
    f.children('addresses', 'EmployeeAddress', () => EmployeeAddress, 'partyId', 'position'),
    f.ref('businessArea', 'BusinessArea', () => BusinessArea, 'businessAreaId'),
    f.uuid('businessAreaId'),
    f.string('code'),
    f.string('comments'),
    f.children('contacts', 'EmployeeContact', () => EmployeeContact, 'partyId', 'position'),
    f.dateTime('creationDate'),
    ...account('defaultAccountingAccount'),
    f.bool('disabled'),
    f.dateTime('disabledDate'),
    ...gdpr(),
    f.uuid('id'),
    f.dateTime('modificationDate'),
    f.string('name'),
    f.string('shortName'),
    f.enum('sourceType', 'SourceType', SourceType),
    f.enum('status', 'EmployeeStatus', EmployeeStatus),
  ],
});

/** Per kind: the party's resource and the resources of its parts (the projection writes through these). */
export const PARTY_TABLES = {
  customer: { party: Customer, address: CompanyAddress, contact: CompanyContact, parts: CompanyContactParts, terms: CustomerPaymentTermLine },
  supplier: { party: Supplier, address: CompanyAddress, contact: CompanyContact, parts: CompanyContactParts, terms: SupplierPaymentTermLine },
  employee: { party: Employee, address: EmployeeAddress, contact: EmployeeContact, parts: EmployeeContactParts, terms: null },
} as const;

export const PARTY_RESOURCES: Resource[] = [
  Customer, Supplier, Employee, CompanyAddress, EmployeeAddress, CompanyContact, EmployeeContact,
  ...Object.values(CompanyContactParts), ...Object.values(EmployeeContactParts), CustomerPaymentTermLine, SupplierPaymentTermLine,
];

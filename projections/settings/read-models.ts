/**
 * Shared settings as read models: business areas, job areas and document types (fields as the spec's
 * section 2.6 names them), payment means and methods, payment terms with their lines.
 */
import { PaymentMeanType, PaymentMethodType, PaymentTermLineCondition, PaymentTermLineType } from '../../domain/settings/enums.ts';
import { f, type Resource } from '../engine/resource.ts';
import { AccountingAccount, JournalType } from '../accounting/read-models.ts';

/** BusinessArea and JobArea have the same shape: one definition, two resources. */
function area(typeName: string, table: string, field: string, path: string): Resource {
  return {
    typeName,
    table,
    scope: 'organisation',
    query: { field, connection: `${typeName}sConnection` },
    rest: { path, displayedAs: (r) => String(r.name) },
    defaultOrder: ['name'],
    fields: [f.dateTime('creationDate'), f.uuid('id'), f.dateTime('modificationDate'), f.string('name')],
  };
}

export const BusinessArea = area('BusinessArea', 'business_areas', 'businessAreas', '/business_areas');
export const JobArea = area('JobArea', 'job_areas', 'jobAreas', '/job_areas');

export const DocumentType: Resource = {
  typeName: 'DocumentType',
  table: 'document_types',
  scope: 'organisation',
  query: { field: 'documentTypes', connection: 'DocumentTypesConnection' },
  defaultOrder: ['code'],
  fields: [f.string('code'), f.dateTime('creationDate'), f.uuid('id'), f.string('legislationCode'), f.dateTime('modificationDate'), f.string('name')],
};

/** Sage's PaymentMean (transfer, cheque...): its description is its business id; code, bank details and account are our extras. */
export const PaymentMean: Resource = {
  typeName: 'PaymentMean',
  table: 'payment_means',
  scope: 'organisation',
  query: { field: 'paymentMeans', connection: 'PaymentMeansConnection' },
  rest: { path: '/payment_means', displayedAs: (r) => String(r.description) },
  defaultOrder: ['description'],
  fields: [
    f.ref('accountingAccount', 'AccountingAccount', () => AccountingAccount, 'accountingAccountId'),
    f.uuid('accountingAccountId'),
    f.string('bankName'),
    f.string('bic'),
    f.string('code'),
    f.dateTime('creationDate'),
    f.string('description'),
    f.string('iban'),
    f.uuid('id'),
    f.bool('inactive'),
    f.dateTime('modificationDate'),
    f.enum('type', 'PaymentMeanType', PaymentMeanType),
  ],
};

/** Sage's PaymentMethod: a bank or cash account, posting to `subAccount` through `journalType`. */
export const PaymentMethod: Resource = {
  typeName: 'PaymentMethod',
  table: 'payment_methods',
  scope: 'organisation',
  query: { field: 'paymentMethods', connection: 'PaymentMethodsConnection' },
  rest: { path: '/payment_methods', displayedAs: (r) => String(r.referenceName) },
  defaultOrder: ['referenceName'],
  fields: [
    f.string('bankName'),
    f.string('bic'),
    f.dateTime('creationDate'),
    f.bool('disabled'),
    f.string('iban'),
    f.uuid('id'),
    f.ref('journalType', 'JournalType', () => JournalType, 'journalTypeId'),
    f.uuid('journalTypeId'),
    f.dateTime('modificationDate'),
    f.string('referenceName'),
    f.ref('subAccount', 'AccountingAccount', () => AccountingAccount, 'subAccountId'),
    f.uuid('subAccountId'),
    f.enum('type', 'PaymentMethodType', PaymentMethodType),
  ],
};

/**
 * Payment term lines: a payment term's, a customer's and a supplier's have the same shape (the spec's
 * CustomerPaymentTermLine). `ownerId` is the term or party; payDays is stored as a comma list.
 */
export function paymentTermLines(typeName: string, table: string, ownerField: string): Resource {
  return {
    typeName,
    table,
    scope: 'organisation',
    indexes: [[ownerField.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]],
    fields: [
      f.enum('condition', 'PaymentTermLineCondition', PaymentTermLineCondition),
      f.dateTime('creationDate'),
      f.int('day'),
      f.uuid('id'),
      f.dateTime('modificationDate'),
      f.int('order', { column: 'line_order' }), // ORDER is reserved in SQL
      f.uuid(ownerField, { hidden: true }),
      f.computed('payDays', '[Int]', (row) => (row.payDaysList ? String(row.payDaysList).split(',').map(Number) : [])),
      f.string('payDaysList', { hidden: true }),
      f.ref('paymentMean', 'PaymentMean', () => PaymentMean, 'paymentMeanId'),
      f.uuid('paymentMeanId'),
      f.enum('type', 'PaymentTermLineType', PaymentTermLineType),
      f.decimal('value'),
    ],
  };
}

export const PaymentTermLine = paymentTermLines('PaymentTermLine', 'payment_term_lines', 'paymentTermId');

export const PaymentTerm: Resource = {
  typeName: 'PaymentTerm',
  table: 'payment_terms',
  scope: 'organisation',
  query: { field: 'paymentTerms', connection: 'PaymentTermsConnection' },
  rest: { path: '/payment_terms', displayedAs: (r) => (r.code ? `${r.code} ${r.name}` : String(r.name)) },
  defaultOrder: ['name'],
  fields: [
    f.string('code'),
    f.dateTime('creationDate'),
    f.bool('disabled'),
    f.uuid('id'),
    f.children('lines', 'PaymentTermLine', () => PaymentTermLine, 'paymentTermId', 'order'),
    f.dateTime('modificationDate'),
    f.string('name'),
  ],
};

export const SETTINGS_RESOURCES: Resource[] = [BusinessArea, JobArea, DocumentType, PaymentMean, PaymentMethod, PaymentTerm, PaymentTermLine];

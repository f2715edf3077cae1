/** The accounting read models: field lists exactly as the spec's section 2.2 names them. */
import {
  AccountLevel, AccountType, AccountingEntryType, CreditNoteReason, ExerciseStatus, JournalTypeType, Month, SourceType, SubAccountType,
} from '../../domain/accounting/enums.ts';
import { legislationCodeOf } from '../../domain/reference/countries.ts';
import { RegisterType } from '../../domain/reference/invoice-types.ts';
import { ThirdPartyOrigin } from '../../domain/accounting/ledger.ts';
import { f, type Resource } from '../engine/resource.ts';
import { TaxTreatment } from '../taxes/read-models.ts';
import { accountingEntryThirdParty } from './third-party.ts';
import { AccountingEntryInvoice, AccountingEntryPayment } from './entry-documents.ts';
import { SalesInvoice } from '../sales/read-models.ts';
import { DeletedEntryLine, LINE_BALANCES } from './balances.ts';

export const AccountingAccount: Resource = {
  typeName: 'AccountingAccount',
  table: 'accounting_accounts',
  scope: 'organisation',
  query: { field: 'accountingAccounts', connection: 'AccountingAccountsConnection' },
  rest: { path: '/ledger_accounts', displayedAs: (r) => `${r.code} ${r.name}` },
  indexes: [['organisation_id', 'code']],
  defaultOrder: ['code'],
  fields: [
    f.absent('accountingAccountDimensionTags', '[AccountingAccountDimensionTag]'),
    f.enum('accountLevel', 'AccountLevel', AccountLevel),
    f.enum('accountType', 'AccountType', AccountType),
    f.bool('applyVat'),
    f.string('code'),
    f.bool('createdByUser'),
    f.dateTime('creationDate'),
    f.string('exportAccountNumber'),
    f.bool('exportAutomaticAccount'),
    f.bool('deactivated'),
    f.string('description'),
    f.uuid('id'),
    f.bool('includedEurForGermany'),
    f.dateTime('modificationDate'),
    f.string('name'),
    f.enum('subAccountType', 'SubAccountType', SubAccountType),
    // Internal (domain/accounting/account-nature.ts): not Sage's field; what resolves an old GENERAL or OFF_BALANCE.
    f.string('nature', { hidden: true, rest: false }),
    f.int('taxonomy'),
    f.ref('taxTreatment', 'TaxTreatment', () => TaxTreatment, 'taxTreatmentId'),
    f.uuid('taxTreatmentId'),
    f.ref('transitionalPrepaymentAccount', 'AccountingAccount', () => AccountingAccount, 'transitionalPrepaymentAccountId'),
    f.uuid('transitionalPrepaymentAccountId'),
    f.ref('yearEndClosingAccount', 'AccountingAccount', () => AccountingAccount, 'yearEndClosingAccountId'),
    f.uuid('yearEndClosingAccountId'),
  ],
};

export const JournalType: Resource = {
  typeName: 'JournalType',
  table: 'journal_types',
  scope: 'organisation',
  query: { field: 'journalTypes', connection: 'JournalTypesConnection' },
  rest: { path: '/journal_types', displayedAs: (r) => `${r.code} ${r.name}` },
  fields: [
    f.ref('accountingAccount', 'AccountingAccount', () => AccountingAccount, 'accountingAccountId'),
    f.uuid('accountingAccountId'),
    f.string('code'),
    f.dateTime('creationDate'),
    f.enum('creditNoteReason', 'CreditNoteReason', CreditNoteReason),
    f.bool('deactivated'),
    f.uuid('id'),
    f.bool('isCreditNote'),
    f.dateTime('modificationDate'),
    f.string('name'),
    f.enum('type', 'JournalTypeType', JournalTypeType),
  ],
};

export const AccountingPeriod: Resource = {
  typeName: 'AccountingPeriod',
  table: 'accounting_periods',
  scope: 'organisation',
  indexes: [['accounting_exercise_id']],
  fields: [
    f.uuid('accountingExerciseId', { hidden: true }),
    f.dateTime('creationDate'),
    f.dateTime('endDate'),
    f.uuid('id'),
    f.bool('isClosed'),
    f.dateTime('modificationDate'),
    f.enum('month', 'Month', Month),
    f.dateTime('startDate'),
  ],
};

export const AccountingExercise: Resource = {
  typeName: 'AccountingExercise',
  table: 'accounting_exercises',
  scope: 'organisation',
  query: { field: 'accountingExercises', connection: 'AccountingExercisesConnection' },
  rest: { path: '/accounting_exercises', displayedAs: (r) => `${r.exercise} (${String(r.startDate).slice(0, 10)} - ${String(r.endDate).slice(0, 10)})` },
  fields: [
    f.dateTime('creationDate'),
    f.string('description'),
    f.dateTime('endDate'),
    f.int('exercise'),
    f.uuid('id'),
    f.dateTime('modificationDate'),
    f.int('numberPeriods'),
    f.children('periods', 'AccountingPeriod', () => AccountingPeriod, 'accountingExerciseId', 'startDate'),
    f.dateTime('startDate'),
    f.enum('status', 'ExerciseStatus', ExerciseStatus),
  ],
};

export const Session: Resource = {
  typeName: 'Session',
  table: 'accounting_entry_sessions',
  scope: 'organisation',
  query: { field: 'accountingEntrySessions', connection: 'AccountingEntrySessionsConnection' },
  fields: [
    f.dateTime('creationDate'),
    f.bool('deactivated'),
    f.uuid('id'),
    f.bool('isDefault'),
    f.dateTime('modificationDate'),
    f.string('name'),
    f.string('stamp'),
  ],
};

export const OrganizationCurrency: Resource = {
  typeName: 'OrganizationCurrency',
  table: 'organisation_currencies',
  scope: 'organisation',
  query: { field: 'currencies', connection: 'CurrenciesConnection' },
  fields: [
    f.string('code'),
    f.dateTime('creationDate', { nonNull: true }),
    f.string('description'),
    f.uuid('id', { nonNull: true }),
    f.bool('isBaseCurrency'),
    f.dateTime('modificationDate'),
    f.int('precision', { nonNull: true }),
  ],
};

export const AccountingEntry: Resource = {
  typeName: 'AccountingEntry',
  table: 'accounting_entries',
  scope: 'organisation',
  query: { field: 'accountingEntries', connection: 'AccountingEntriesConnection' },
  rest: { path: '/journals', displayedAs: (r) => `${r.number} ${r.description ?? ''}`.trim() },
  // (organisation_id, date, number) serves the default order (date, number), date filters, and a period's or an
  // exercise's entries as their dates (datedWithin): lists filtered on them and a period's close are bounded by the
  // parent's first and last days. A period index of its own is not needed: (accounting_period_id) alone made the
  // planner AND it with the date bounds and sort the whole month (43 ms at p99 for the last month of two years), and
  // an ordered one cost a rebuild about 10% (docs/decisions.md).
  indexes: [['accounting_exercise_id', 'number'], ['organisation_id', 'date', 'number']],
  datedWithin: { on: 'date', parents: { accountingPeriodId: () => AccountingPeriod, accountingExerciseId: () => AccountingExercise } },
  countedBy: ['accountingExerciseId', 'accountingPeriodId', 'journalTypeId'],
  defaultOrder: ['date', 'number'],
  fields: [
    f.children('accountingEntryLines', 'AccountingEntryLine', () => AccountingEntryLine, 'accountingEntryId', 'order'),
    f.ref('accountingExercise', 'AccountingExercise', () => AccountingExercise, 'accountingExerciseId'),
    f.uuid('accountingExerciseId'),
    f.ref('accountingPeriod', 'AccountingPeriod', () => AccountingPeriod, 'accountingPeriodId'),
    f.uuid('accountingPeriodId'),
    f.dateTime('closeDate'),
    f.dateTime('creationDate'),
    f.ref('currency', 'OrganizationCurrency', () => OrganizationCurrency, 'currencyId'),
    f.uuid('currencyId'),
    f.dateTime('date'),
    f.string('description'),
    f.dateTime('documentDate'),
    f.string('documentNumber'),
    f.enum('entryType', 'AccountingEntryType', AccountingEntryType),
    f.uuid('id'),
    f.bool('isClosed'),
    f.ref('journalType', 'JournalType', () => JournalType, 'journalTypeId'),
    f.uuid('journalTypeId'),
    f.dateTime('modificationDate'),
    f.int('number'),
    // The invoice an entry posts (postSalesInvoice: sourceEntityId is the invoice's id); null for any other entry, a settlement's included.
    f.ref('salesInvoice', 'SalesInvoiceHeader', () => SalesInvoice, 'sourceEntityId'),
    f.ref('session', 'Session', () => Session, 'sessionId'),
    f.uuid('sessionId'),
    f.uuid('sourceEntityId'),
    f.enum('sourceType', 'SourceType', SourceType),
    f.int('tanNumber'),
  ],
};

export const AccountingEntryLine: Resource = {
  typeName: 'AccountingEntryLine',
  table: 'accounting_entry_lines',
  scope: 'organisation',
  query: { field: 'accountingEntryLines', connection: 'AccountingEntryLinesConnection' },
  // (organisation_id, sub_account_id, accounting_entry_id): an account's lines, and the entries with a line on it,
  // read from the index alone (a filter `accountingEntryLines: { some: { subAccount... } }` counts and probes by it).
  // (organisation_id, third_code), (organisation_id, third_party_id): a third party's ledger (pm-015..038).
  // (organisation_id, recorded_at): the lines recorded after a moment, which reports as of that moment take off.
  indexes: [['accounting_entry_id'], ['organisation_id', 'sub_account_id', 'accounting_entry_id'], ['organisation_id', 'third_code'], ['organisation_id', 'third_party_id'], ['organisation_id', 'recorded_at'],
    // The third-party balance's partial edge periods read the lines of a range of days (projections/reports/sql.ts partyDaysFrom).
    ['organisation_id', 'date']],
  countedBy: ['subAccountId'],
  defaultOrder: ['accountingEntryId', 'order'],
  // The balances (balances.ts): kept with the lines, and the lines deleted kept with when.
  sums: LINE_BALANCES,
  keepsDeleted: () => DeletedEntryLine,
  fields: [
    f.ref('accountingEntry', 'AccountingEntry', () => AccountingEntry, 'accountingEntryId'),
    f.absent('accountingEntryDimensionTags', '[AccountingEntryDimensionTag]'),
    f.uuid('accountingEntryId'),
    f.ref('accountingEntryInvoice', 'AccountingEntryInvoice', () => AccountingEntryInvoice, 'accountingEntryInvoiceId'),
    f.uuid('accountingEntryInvoiceId', { hidden: true }),
    f.ref('accountingEntryPayment', 'AccountingEntryPayment', () => AccountingEntryPayment, 'accountingEntryPaymentId'),
    f.uuid('accountingEntryPaymentId', { hidden: true }),
    accountingEntryThirdParty,
    // The entry's, copied so that a line alone (as its deletion returns it) names its balances' keys.
    f.uuid('accountingExerciseId', { hidden: true }),
    f.uuid('accountingPeriodId', { hidden: true }),
    f.string('contraAccount'),
    f.dateTime('creationDate'),
    f.decimal('creditAmount'),
    f.date('date', { hidden: true }),
    f.decimal('debitAmount'),
    f.string('description'),
    f.string('documentNumber'),
    f.enum('entryType', 'AccountingEntryType', AccountingEntryType, { hidden: true }),
    f.uuid('id'),
    f.dateTime('modificationDate'),
    f.int('order', { column: 'line_order' }), // ORDER is reserved in SQL
    f.dateTime('recordedAt', { hidden: true }), // the posting event's
    f.ref('subAccount', 'AccountingAccount', () => AccountingAccount, 'subAccountId'),
    f.uuid('subAccountId'),
    f.string('thirdCode', { hidden: true }),
    f.uuid('thirdPartyId', { hidden: true }),
    f.enum('thirdPartyOrigin', 'OriginType', ThirdPartyOrigin, { hidden: true }),
  ],
};

export const Country: Resource = {
  typeName: 'Country',
  table: 'ref_countries',
  scope: 'global',
  query: { field: 'countries', connection: 'CountriesConnection' },
  fields: [
    f.dateTime('creationDate'),
    f.uuid('id'),
    f.string('isoCodeAlpha2'),
    f.string('isoCodeAlpha3'),
    f.string('isoNumber'),
    // Derived, not stored: the reference table keeps its columns, so no database needs it reseeded.
    f.computed('legislationCode', 'String', (row) => legislationCodeOf(String(row.isoCodeAlpha2))),
    f.dateTime('modificationDate'),
    f.string('name'),
    f.string('viesCode'),
  ],
};

export const InvoiceType: Resource = {
  typeName: 'InvoiceType',
  table: 'ref_invoice_types',
  scope: 'global',
  query: { field: 'invoiceTypes', connection: 'InvoiceTypesConnection' },
  fields: [
    f.dateTime('creationDate'),
    f.string('description'),
    f.uuid('id'),
    f.string('invoiceTypesCode'),
    f.bool('isAmendInvoice'),
    f.dateTime('modificationDate'),
    f.enum('registerType', 'RegisterType', RegisterType),
    f.string('siiCode'),
  ],
};

export const DimensionOutputGLDto: Resource = {
  typeName: 'DimensionOutputGLDto',
  table: 'dimensions',
  scope: 'organisation',
  query: { field: 'dimensions', connection: 'DimensionsConnection' },
  fields: [
    f.string('code', { nonNull: true }),
    f.dateTime('creationDate', { nonNull: true }),
    f.string('description', { nonNull: true }),
    f.absent('dimensionTags', '[DimensionTagOutputGLDto!]!'),
    f.uuid('id', { nonNull: true }),
    f.bool('isActive', { nonNull: true }),
    f.dateTime('modificationDate'),
    f.string('name', { nonNull: true }),
  ],
};

export const ACCOUNTING_RESOURCES: Resource[] = [
  AccountingAccount, JournalType, AccountingExercise, AccountingPeriod, Session, OrganizationCurrency,
  AccountingEntry, AccountingEntryLine, Country, InvoiceType, DimensionOutputGLDto,
];

/**
 * What a line records of the document behind it (spec §2.2): a sales invoice's AccountingEntryInvoice with its
 * AccountingEntryTax rows, a settlement's AccountingEntryPayment. One row each per line that carries one (the
 * line names it by a hidden id), so clients filter lines and entries through them as Sage's do
 * (`accountingEntryLines: { some: { accountingEntryPayment: { matchingLetter: { eq: "AA" } } } }`).
 * Enumerations declared in the spec's types (CreditNoteType, TaxType, RegimeType) are kept as text and
 * filtered as strings; MatchingType is the accounting module's.
 */
import { CreditNoteReason } from '../../domain/accounting/enums.ts';
import { MatchingType } from '../../domain/accounting/entry-documents.ts';
import { f, type Resource } from '../engine/resource.ts';
import { OpenItem } from '../sales/read-models.ts';
import { InvoiceType } from './read-models.ts';

/** Stored text, typed by the spec's enum in the schema. */
const enumText = (name: string, gql: string) => f.string(name, { gql });

export const AccountingEntryTax: Resource = {
  typeName: 'AccountingEntryTax',
  table: 'accounting_entry_taxes',
  scope: 'organisation',
  indexes: [['accounting_entry_invoice_id'], ['accounting_entry_id']],
  defaultOrder: ['accountingEntryInvoiceId', 'order'],
  fields: [
    f.uuid('accountingEntryInvoiceId', { hidden: true }),
    f.uuid('accountingEntryId', { hidden: true }),
    f.int('order', { column: 'tax_order', hidden: true }),
    f.dateTime('creationDate'),
    f.bool('deductible'),
    f.decimal('equivalenceSurchargePercentage'),
    f.decimal('equivalenceSurchargeQuota'),
    f.bool('hasEquivalenceSurcharge'),
    f.uuid('id'),
    f.dateTime('modificationDate'),
    enumText('regimeType', 'RegimeType'),
    f.decimal('taxAmount'),
    f.decimal('taxBase'),
    f.uuid('taxGroupId'),
    f.uuid('taxId'),
    f.decimal('taxPercentage'),
    f.uuid('taxTreatmentId'),
    enumText('taxType', 'TaxType'),
  ],
};

export const AccountingEntryInvoice: Resource = {
  typeName: 'AccountingEntryInvoice',
  table: 'accounting_entry_invoices',
  scope: 'organisation',
  indexes: [['accounting_entry_id'], ['organisation_id', 'external_invoice_number'], ['organisation_id', 'finish_invoice_number']],
  fields: [
    f.uuid('accountingEntryId', { hidden: true }),
    f.children('accountingEntryTaxes', 'AccountingEntryTax', () => AccountingEntryTax, 'accountingEntryInvoiceId', 'order'),
    f.decimal('amount'),
    f.dateTime('creationDate'),
    f.enum('creditNoteReason', 'CreditNoteReason', CreditNoteReason),
    enumText('creditNoteType', 'CreditNoteType'),
    f.dateTime('documentDate'),
    f.string('externalInvoiceNumber'),
    f.string('finishInvoiceNumber'),
    f.uuid('id'),
    f.ref('invoiceType', 'InvoiceType', () => InvoiceType, 'invoiceTypeId'),
    f.uuid('invoiceTypeId'),
    f.bool('isCashVat'),
    f.bool('isGroupingInvoices'),
    f.dateTime('modificationDate'),
    // The open items of the sales invoice the entry posts (each names the entry that posted it).
    f.children('openItems', 'OpenItem', () => OpenItem, 'accountingEntryId', 'dueDate', 'accountingEntryId', 'OpenItemQueryResponseSortInput'),
    f.ref('originalAccountingEntryInvoice', 'AccountingEntryInvoice', () => AccountingEntryInvoice, 'originalAccountingEntryInvoiceId'),
    f.uuid('originalAccountingEntryInvoiceId'),
    f.decimal('originalEntryInvoiceTaxesBaseSum'),
    f.decimal('originalEntryInvoiceTaxesSurchargeAmountSum'),
    f.decimal('originalEntryInvoiceTaxesTaxAmountSum'),
    f.dateTime('originalInvoiceDate'),
    f.string('originalInvoiceNumber'),
    f.string('startInvoiceNumber'),
  ],
};

export const AccountingEntryPayment: Resource = {
  typeName: 'AccountingEntryPayment',
  table: 'accounting_entry_payments',
  scope: 'organisation',
  indexes: [['accounting_entry_id'], ['organisation_id', 'matching_letter'], ['organisation_id', 'match_id']],
  fields: [
    f.uuid('accountingEntryId', { hidden: true }),
    f.dateTime('creationDate'),
    f.uuid('id'),
    f.uuid('matchId'),
    f.enum('matching', 'MatchingType', MatchingType),
    f.string('matchingLetter'),
    f.dateTime('modificationDate'),
  ],
};

export const ENTRY_DOCUMENT_RESOURCES: Resource[] = [AccountingEntryInvoice, AccountingEntryTax, AccountingEntryPayment];

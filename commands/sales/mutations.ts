/** The sales documents' mutations, with the spec's names and directives (§4.1); the update* are Sage's, directed as their siblings. */
import { mutation, type MutationSpec } from '../mutation.ts';
import { sharingOrganisation } from '../organisation-guards.ts';
import type { SalesDocumentKind } from '../../domain/sales/enums.ts';
import { createSalesDocument, deleteSalesDocument, linkRelatedSalesDocument, updateSalesDocument } from './handlers.ts';
import * as I from './inputs.ts';
import { CloseSalesInvoiceInput, GenerateCreditNoteInput } from './lifecycle-inputs.ts';
import { closeSalesInvoice, generateCreditNote } from './lifecycle.ts';

/** Each kind's entity name, its access-control name and resource (quotes are Sage's "sales-offer"). */
const KINDS: [SalesDocumentKind, entity: string, access: string, create: I.Schema, update: I.Schema, remove: I.Schema][] = [
  ['QUOTE', 'SalesQuote', 'sales-offer', I.SalesQuoteCreateInput, I.SalesQuoteUpdateInput, I.SalesQuoteDeleteInput],
  ['ORDER', 'SalesOrder', 'sales-order', I.SalesOrderCreateInput, I.SalesOrderUpdateInput, I.SalesOrderDeleteInput],
  ['DELIVERY_NOTE', 'SalesDeliveryNote', 'sales-delivery-note', I.SalesDeliveryNoteCreateInput, I.SalesDeliveryNoteUpdateInput, I.SalesDeliveryNoteDeleteInput],
  ['INVOICE', 'SalesInvoice', 'sales-invoice', I.SalesInvoiceCreateInput, I.SalesInvoiceUpdateInput, I.SalesInvoiceDeleteInput],
];

/*
 * Creates, updates and credit notes name products and customers: they share the organisation's lock, which the
 * deletions of products and parties hold alone (organisation-guards.ts). Deleting or linking documents names none anew.
 */

/** `{ id operationalNumber }`: nullable, an invoice has no number until it is closed. */
const NUMBERED = { returns: { fields: 'operationalNumber: String' } };

export const SALES_RESOURCE = (access: string) => `active/sales/${access}`;

export const SALES_MUTATIONS: MutationSpec[] = [
  ...KINDS.flatMap(([kind, entity, access, create, update, remove]) => [
    mutation('create', entity, create, 'SALES', [`add-${access}`, SALES_RESOURCE(access), 'add'], sharingOrganisation(createSalesDocument(kind, create)), NUMBERED),
    mutation('update', entity, update, 'SALES', [`update-${access}`, SALES_RESOURCE(access), 'update'], sharingOrganisation(updateSalesDocument(kind, update)), NUMBERED),
    mutation('delete', entity, remove, 'SALES', [`delete-${access}`, SALES_RESOURCE(access), 'delete'], deleteSalesDocument(kind, remove)),
  ]),
  {
    name: 'linkRelatedSalesDocument', input: 'LinkRelatedSalesDocumentGLDtoInput', output: 'LinkRelatedSalesDocumentOutputGLDto', feature: 'SALES',
    accessControl: { name: 'update-sales-offer', resource: SALES_RESOURCE('sales-offer'), action: 'update' }, filter: 'NO_FILTER',
    schema: I.LinkRelatedSalesDocumentInput, run: linkRelatedSalesDocument(I.LinkRelatedSalesDocumentInput),
    returns: { id: false, fields: 'documentId: UUID! documentType: RelatedSalesDocumentType! originDocumentType: RelatedSalesDocumentType! originId: UUID!' },
  },
  {
    // The spec's table directs it as a common action (add-common), not as the invoice's.
    name: 'closeSalesInvoice', input: 'CloseSalesInvoiceGLDtoInput', output: 'CloseSalesInvoiceOutputGLDto', feature: 'SALES',
    accessControl: { name: 'add-common', resource: 'active/common', action: 'add' }, filter: 'NO_FILTER',
    schema: CloseSalesInvoiceInput, run: closeSalesInvoice(CloseSalesInvoiceInput), returns: { fields: 'operationalNumber: String!' },
  },
  {
    // Answers { id }: the credit note is numbered when closed, in series CN.
    name: 'generateCreditNote', input: 'GenerateCreditNoteGLDtoInput', output: 'GenerateCreditNoteOutputGLDto', feature: 'SALES',
    accessControl: { name: 'add-sales-invoice', resource: SALES_RESOURCE('sales-invoice'), action: 'add' }, filter: 'NO_FILTER',
    schema: GenerateCreditNoteInput, run: sharingOrganisation(generateCreditNote(GenerateCreditNoteInput)),
  },
];

/** Posting an invoice and settling its open items: the entry's id and number (spec §4.1; breadth §1.2, §1.5). */
import { postSalesInvoice } from './posting.ts';
import { salesOpenItemSettlement } from './settlement.ts';
import { PostSalesInvoiceInput, SalesOpenItemSettlementInput } from './ledger-inputs.ts';

const ENTRY_FIELDS = 'accountingEntryId: UUID! accountingEntryNumber: Int!';
SALES_MUTATIONS.push(
  {
    name: 'postSalesInvoice', input: 'PostSalesInvoiceGLDtoInput', output: 'PostSalesInvoiceOutputGLDto', feature: 'CORE',
    accessControl: { name: 'add-common', resource: 'active/common', action: 'add' }, filter: 'NO_FILTER',
    schema: PostSalesInvoiceInput, run: postSalesInvoice(),
    returns: { id: false, fields: `${ENTRY_FIELDS} accountingEntries: [PostSalesInvoiceAccountingEntryGLDto!]!` },
  },
  {
    // Directives as purchaseOpenItemSettlement's (the spec's table stops there; the two are one shape).
    name: 'salesOpenItemSettlement', input: 'SalesOpenItemSettlementGLDtoInput', output: 'SalesOpenItemSettlementOutputGLDto', feature: 'CORE',
    accessControl: { name: 'add-accounting-entry', resource: 'active/accounting/accounting-entry', action: 'add' }, filter: 'NO_FILTER',
    schema: SalesOpenItemSettlementInput, run: salesOpenItemSettlement(),
    returns: { id: false, fields: ENTRY_FIELDS },
  },
);

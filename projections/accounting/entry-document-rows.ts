/** The rows of a posted line's invoice (with its taxes) and payment (entry-documents.ts), and their removal with the entry. */
import { accountingEntryInvoiceIdOf } from '../../domain/accounting/entry-documents.ts';
import type { LedgerEvent, PostedLine } from '../../domain/accounting/ledger.ts';
import { derivedId } from '../../domain/ids.ts';
import type { TableOf } from '../engine/projection.ts';
import type { Writes } from '../engine/writes.ts';
import { AccountingEntryInvoice, AccountingEntryPayment, AccountingEntryTax } from './entry-documents.ts';

type Posted = Extract<LedgerEvent, { type: 'AccountingEntryPosted' }>['data'];


/** Writes the line's invoice and payment rows; answers the ids the line names them by. */
export function insertEntryDocuments(w: Writes, t: TableOf, organisationId: string, d: Posted, l: PostedLine): { accountingEntryInvoiceId: string | null; accountingEntryPaymentId: string | null } {
  const stamps = { organisationId, accountingEntryId: d.entryId, creationDate: d.at, modificationDate: d.at };
  let accountingEntryInvoiceId: string | null = null;
  let accountingEntryPaymentId: string | null = null;
  if (l.invoice) {
    const { taxes, ...invoice } = l.invoice;
    accountingEntryInvoiceId = accountingEntryInvoiceIdOf(d.entryId);
    w.insert(AccountingEntryInvoice, t(AccountingEntryInvoice), {
      ...stamps, ...invoice, id: accountingEntryInvoiceId, startInvoiceNumber: invoice.finishInvoiceNumber, isGroupingInvoices: false,
      originalEntryInvoiceTaxesBaseSum: null, originalEntryInvoiceTaxesSurchargeAmountSum: null, originalEntryInvoiceTaxesTaxAmountSum: null,
    });
    taxes.forEach((tax, i) => {
      w.insert(AccountingEntryTax, t(AccountingEntryTax), { ...stamps, ...tax, id: derivedId(accountingEntryInvoiceId!, 'accounting-entry-tax', String(i)), accountingEntryInvoiceId, order: i + 1 });
    });
  }
  if (l.payment) {
    accountingEntryPaymentId = derivedId(l.lineId, 'accounting-entry-payment', 'line');
    w.insert(AccountingEntryPayment, t(AccountingEntryPayment), { ...stamps, ...l.payment, id: accountingEntryPaymentId });
  }
  return { accountingEntryInvoiceId, accountingEntryPaymentId };
}

export function deleteEntryDocuments(w: Writes, t: TableOf, entryId: string): void {
  w.delete(AccountingEntryTax, t(AccountingEntryTax), { accountingEntryId: entryId });
  w.delete(AccountingEntryInvoice, t(AccountingEntryInvoice), { accountingEntryId: entryId });
  w.delete(AccountingEntryPayment, t(AccountingEntryPayment), { accountingEntryId: entryId });
}

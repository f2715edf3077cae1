/**
 * What the ledger records of a sales invoice and of a settlement, through the real service: postSourceEntry
 * appends once under the entry id the caller derives (a retry answers the same number), the entry is SALES with
 * the invoice's id, and its lines read and filter by accountingEntryInvoice (with its taxes) and
 * accountingEntryPayment as Sage's clients do (sage-names.md §1.5).
 */
import t from 'tap';
import { postSourceEntry } from '../commands/accounting/source-postings.ts';
import { AccountingErrors } from '../domain/accounting/errors.ts';
import { accountingEntryInvoiceIdOf } from '../domain/accounting/entry-documents.ts';
import { derivedId } from '../domain/ids.ts';
import { matchingLetterOf } from '../domain/sales/matching.ts';
import { chartPostingAccounts } from '../domain/sales/posting-accounts.ts';
import { invoicePosting, paymentPosting } from '../domain/sales/posting.ts';
import { runningService } from './helpers/service.ts';
import { salesAccountCodeOf, salesDocument } from './helpers/sales-documents.ts';

const api = await runningService(t);
const { commands, mutate, store, daemon } = api.service;
const ctx = { organisationId: api.organisationId };
const year = new Date().getUTCFullYear();
const customer = await mutate.createCustomer(ctx, { socialName: 'Ferretería Centro S.L.', documentId: 'B12345674', vatNumber: 'ESB12345674', countryAcronym: 'ES' });
const customerCode = (customer as { code: string }).code;
const org = await commands.organisation(api.organisationId);
const accountId = (code: string) => org.accountIdByCode.get(code)!;
const journalId = (code: string) => org.journalTypeIdByCode.get(code)!;
const caughtUp = async () => daemon.waitFor(await store.committedHead!());
const gql = async (query: string, variables?: object) => {
  const r = await api.gql(query, variables);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return r.data;
};

const invoiceId = derivedId(api.organisationId, 'test-invoice', '1');
const document = {
  ...salesDocument({
    country: 'ES', hasEquivalenceSurcharge: true, withholdingPercentage: '15',
    lines: [
      { treatment: 'NAT-IVA21', quantity: '10', unitPrice: '100' },
      { treatment: 'NAT-IVA10', quantity: '3', unitPrice: '50.50' },
      { treatment: 'NAT-IVA21', quantity: '1', unitPrice: '400', isService: true, withheld: true },
    ],
  }),
  documentId: invoiceId,
};
const invoiceLines = invoicePosting(document, chartPostingAccounts(org, document, { customerAccountId: null, customerCode, salesAccountCodeOf: salesAccountCodeOf('ES') }));
const invoiceEntry = {
  entryId: derivedId(invoiceId, 'entry', 'posting'), exerciseDate: `${year}-03-10`, journalTypeId: journalId('VEN'), description: 'Invoice F2026-000001',
  documentNumber: 'F2026-000001', lines: invoiceLines, sourceType: 'SALES' as const, sourceEntityId: invoiceId,
};

t.test('postSourceEntry twice with the same id appends once and answers the same number', async (t) => {
  const before = await api.eventCount();
  const first = await postSourceEntry(commands, { ...ctx, commandId: derivedId(invoiceId, 'post', 'a') }, invoiceEntry);
  const again = await postSourceEntry(commands, { ...ctx, commandId: derivedId(invoiceId, 'post', 'b') }, invoiceEntry);
  t.same(again, first, 'the retry (another request) is answered the entry as posted');
  t.equal(await api.eventCount(), before + 1, 'one AccountingEntryPosted');
  t.ok(first.number >= 1);
});

t.test('the entry is SALES with the invoice\'s id; its receivable line reads the invoice and its taxes', async (t) => {
  await caughtUp();
  const data = await gql(`query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { sourceType sourceEntityId
    accountingEntryLines { subAccount { code } debitAmount creditAmount accountingEntryThirdParty { code }
      accountingEntryInvoice { id amount documentDate finishInvoiceNumber externalInvoiceNumber invoiceType { invoiceTypesCode } openItems { id }
        accountingEntryTaxes { taxBase taxAmount taxPercentage hasEquivalenceSurcharge equivalenceSurchargeQuota taxType deductible } }
      accountingEntryPayment { matchingLetter } } } } }`, { id: invoiceEntry.entryId });
  const [entry] = data.accountingEntries.nodes;
  t.match(entry, { sourceType: 'SALES', sourceEntityId: invoiceId });
  const receivable = entry.accountingEntryLines.find((l: any) => l.subAccount.code === '4300000');
  t.match(receivable, { debitAmount: '1854.77', accountingEntryThirdParty: { code: customerCode }, accountingEntryPayment: null });
  t.match(receivable.accountingEntryInvoice, { amount: '1854.77', finishInvoiceNumber: 'F2026-000001', externalInvoiceNumber: 'PO-77', invoiceType: { invoiceTypesCode: 'F1' }, openItems: [] });
  t.same(receivable.accountingEntryInvoice.accountingEntryTaxes.map((x: any) => [x.taxType, x.taxPercentage, x.taxBase, x.taxAmount, x.equivalenceSurchargeQuota]), [
    ['IVA', '21', '1000.00', '210.00', '52.00'], ['IVA', '10', '151.50', '15.15', '2.12'], ['IVA', '21', '400.00', '84.00', '0.00'], ['IRPF', '15', '400.00', '60.00', '0.00'],
  ]);
  t.ok(entry.accountingEntryLines.filter((l: any) => l !== receivable).every((l: any) => l.accountingEntryInvoice === null), 'the other lines carry none');
});

t.test('a settlement\'s lines carry their matching; lines and entries filter by matchingLetter and externalInvoiceNumber', async (t) => {
  const settlementId = derivedId(invoiceId, 'test-settlement', '1');
  const letter = matchingLetterOf(1);
  const lines = paymentPosting({
    settlementId, bankAccountId: accountId('5720000'), matchingLetter: letter, precision: 2,
    invoices: [
      { receivableAccountId: accountId('4300000'), customerCode, invoiceNumber: 'F2026-000001', paidAmount: '1000.00', openAmount: '1854.77' },
      { receivableAccountId: accountId('4300000'), customerCode, invoiceNumber: 'F2026-000002', paidAmount: '20.00', openAmount: '20.00' },
    ],
  });
  const paid = await postSourceEntry(commands, ctx, {
    entryId: derivedId(settlementId, 'entry', 'settlement'), exerciseDate: `${year}-04-10`, journalTypeId: journalId('BAN'), description: `Settlement ${letter}`,
    documentNumber: null, lines, sourceType: 'SALES', sourceEntityId: settlementId,
  });
  await caughtUp();
  const byLetter = await gql(`{ accountingEntryLines(where: { accountingEntryPayment: { matchingLetter: { eq: "AA" } } }, order: [{ order: ASC }]) { totalCount nodes { creditAmount accountingEntryId accountingEntryPayment { matchingLetter matching matchId id } } } }`);
  // One customer, one account, one side: the ledger keeps each invoice's line apart all the same.
  t.equal(byLetter.accountingEntryLines.totalCount, 2);
  t.match(byLetter.accountingEntryLines.nodes, [
    { creditAmount: '1000.00', accountingEntryId: paid.entryId, accountingEntryPayment: { matchingLetter: 'AA', matching: 'PARTIAL_MATCH', matchId: settlementId } },
    { creditAmount: '20.00', accountingEntryPayment: { matching: 'FULL_MATCH' } },
  ]);
  const full = await gql(`{ accountingEntryLines(where: { accountingEntryPayment: { matching: { eq: FULL_MATCH } } }) { totalCount } }`);
  t.equal(full.accountingEntryLines.totalCount, 1, 'filtered by the MatchingType enum');
  const byInvoice = await gql(`{ accountingEntries(where: { accountingEntryLines: { some: { accountingEntryInvoice: { externalInvoiceNumber: { eq: "PO-77" } } } } }) { totalCount nodes { id } } }`);
  t.same(byInvoice.accountingEntries.nodes.map((n: any) => n.id), [invoiceEntry.entryId]);
  const taxes = await gql(`{ accountingEntryLines(where: { accountingEntryInvoice: { accountingEntryTaxes: { some: { taxType: { eq: "IRPF" } } } } }) { totalCount } }`);
  t.equal(taxes.accountingEntryLines.totalCount, 1, 'through the invoice to its taxes');

  // Deleting the settlement's entry takes its payment rows with it.
  await mutate.deleteAccountingEntry(ctx, { id: paid.entryId });
  await caughtUp();
  const gone = await gql(`{ accountingEntryLines(where: { accountingEntryPayment: { matchingLetter: { eq: "AA" } } }) { totalCount } }`);
  t.equal(gone.accountingEntryLines.totalCount, 0);
});

t.test('a credit note\'s entry names the invoice it credits, read through originalAccountingEntryInvoice', async (t) => {
  const noteId = derivedId(api.organisationId, 'test-credit-note', '1');
  const note = {
    ...salesDocument({ country: 'ES', creditNote: true, number: 'R2026-000001', lines: [{ treatment: 'NAT-IVA21', quantity: '-2', unitPrice: '100' }] }),
    documentId: noteId,
  };
  const original = { operationalNumber: 'F2026-000001', documentDate: '2026-03-10', accountingEntryInvoiceId: accountingEntryInvoiceIdOf(invoiceEntry.entryId) };
  const lines = invoicePosting(note, chartPostingAccounts(org, note, { customerAccountId: null, customerCode, original }));
  const posted = await postSourceEntry(commands, ctx, {
    entryId: derivedId(noteId, 'entry', 'posting'), exerciseDate: `${year}-03-20`, journalTypeId: journalId('ABV'), description: 'Credit note R2026-000001',
    documentNumber: 'R2026-000001', lines, sourceType: 'SALES', sourceEntityId: noteId,
  });
  await caughtUp();
  const data = await gql(`query($id: UUID!) { accountingEntryLines(where: { accountingEntryId: { eq: $id }, accountingEntryInvoice: { finishInvoiceNumber: { eq: "R2026-000001" } } }) { nodes {
    creditAmount accountingEntryInvoice { amount creditNoteReason creditNoteType originalInvoiceNumber invoiceType { invoiceTypesCode } originalAccountingEntryInvoice { finishInvoiceNumber amount } } } } }`, { id: posted.entryId });
  t.same(data.accountingEntryLines.nodes, [{
    creditAmount: '242.00',
    accountingEntryInvoice: {
      amount: '-242.00', creditNoteReason: 'R1', creditNoteType: 'BY_DIFFERENCES', originalInvoiceNumber: 'F2026-000001', invoiceType: { invoiceTypesCode: 'R1' },
      originalAccountingEntryInvoice: { finishInvoiceNumber: 'F2026-000001', amount: '1854.77' },
    },
  }]);
});

t.test('the ledger\'s rules hold: an unbalanced entry is refused, nothing appended', async (t) => {
  const before = await api.eventCount();
  const unbalanced = invoiceLines.map((l, i) => (i === 0 ? { ...l, debitAmount: '1854.76' } : l));
  await t.rejects(postSourceEntry(commands, ctx, { ...invoiceEntry, entryId: derivedId(invoiceId, 'entry', 'other'), lines: unbalanced }), { code: AccountingErrors.unbalancedEntry });
  t.equal(await api.eventCount(), before);
});
t.test('every posted event was projected (none parked)', async (t) => {
  const { rows } = await api.service.db.pool.query('SELECT projection, event_type, error FROM projection_parked');
  t.same(rows, []);
});

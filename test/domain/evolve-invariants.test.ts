/**
 * Evolve folds only what its decider could have recorded: a stored event that the state cannot have
 * produced (an unknown id, a duplicate creation, another aggregate's type) means the store or our code
 * is broken, and the fold fails naming the event type and the id instead of skipping the event.
 * Each aggregate: a stream recorded through its decider still folds; each impossible event throws.
 */
import t, { type TAP } from 'tap';
import { decideOrganisation, evolveOrganisation, initialOrganisationState, type OrganisationEvent } from '../../domain/accounting/organisation.ts';
import { evolveLedger, initialLedgerState, type LedgerEvent } from '../../domain/accounting/ledger.ts';
import { decideParties, evolveParties, initialPartiesState, type PartyEvent } from '../../domain/parties/parties.ts';
import { decideSettings, evolveSettings, initialSettingsState, type SettingsEvent } from '../../domain/settings/settings.ts';
import { decideCatalog, evolveCatalog, initialCatalogState, type ProductEvent } from '../../domain/catalog/products.ts';
import { Book, NOW, createOrganisationCommand, createExerciseCommand, executeOrganisation, id, organisationState } from './builders.ts';

type Fold = (events: never[]) => unknown;

/** Folds `stream` then `impossible` into a fresh state and asserts the fold fails naming every fact in `names`. */
function failsOn(t: Pick<TAP, 'ok' | 'match'>, fold: Fold, stream: unknown[], impossible: unknown, names: string[], why: string): void {
  let error: unknown;
  try {
    fold([...stream, impossible] as never[]);
  } catch (e) {
    error = e;
  }
  t.ok(error instanceof Error && error.message.startsWith('invariant violated: '), `${why}: an invariant failure`);
  for (const name of names) t.match((error as Error | undefined)?.message, name, `${why}: the message names ${name}`);
}

const foldOrganisation: Fold = (events) => (events as OrganisationEvent[]).reduce(evolveOrganisation, initialOrganisationState());
const foldLedger: Fold = (events) => (events as LedgerEvent[]).reduce(evolveLedger, initialLedgerState());
const foldParties: Fold = (events) => (events as PartyEvent[]).reduce(evolveParties, initialPartiesState());
const foldSettings: Fold = (events) => (events as SettingsEvent[]).reduce(evolveSettings, initialSettingsState());
const foldCatalog: Fold = (events) => (events as ProductEvent[]).reduce(evolveCatalog, initialCatalogState());

t.test('Organisation: a recorded stream folds; impossible events fail', async (t) => {
  const stream = decideOrganisation(createOrganisationCommand('ES'), initialOrganisationState());
  const state = stream.reduce(evolveOrganisation, initialOrganisationState());
  stream.push(...executeOrganisation(state, createExerciseCommand('2026-01-01', '2026-12-31')));
  const folded = foldOrganisation(stream as never[]) as typeof state;
  t.equal(folded.accounts.size, state.accounts.size, 'the recorded stream folds to the same chart');
  t.equal(folded.exercises.size, 1);

  const account = stream.find((e) => e.type === 'AccountingAccountCreated')!;
  const journal = stream.find((e) => e.type === 'JournalTypeCreated')!;
  const exercise = stream.find((e) => e.type === 'AccountingExerciseCreated')!;
  const unknown = id();
  failsOn(t, foldOrganisation, [], account, ['AccountingAccountCreated', 'OrganisationCreated'], 'an account before its organisation');
  failsOn(t, foldOrganisation, stream, stream[0], ['OrganisationCreated'], 'a second OrganisationCreated');
  failsOn(t, foldOrganisation, stream, account, ['AccountingAccountCreated', (account.data as { accountId: string }).accountId], 'an account created twice');
  failsOn(t, foldOrganisation, stream, { ...account, data: { ...account.data, accountId: unknown } }, ['AccountingAccountCreated', unknown, (account.data as { code: string }).code], 'a second account with a code in use');
  failsOn(t, foldOrganisation, stream, { type: 'AccountingAccountUpdated', data: { accountId: unknown, changes: { deactivated: true }, at: NOW } }, ['AccountingAccountUpdated', unknown], 'an update of an unknown account');
  failsOn(t, foldOrganisation, stream, { type: 'AccountingAccountDeleted', data: { accountId: unknown, code: '999', at: NOW } }, ['AccountingAccountDeleted', unknown], 'a deletion of an unknown account');
  failsOn(t, foldOrganisation, stream, journal, ['JournalTypeCreated', (journal.data as { journalTypeId: string }).journalTypeId], 'a journal type created twice');
  failsOn(t, foldOrganisation, stream, { type: 'JournalTypeUpdated', data: { journalTypeId: unknown, changes: {}, at: NOW } }, ['JournalTypeUpdated', unknown], 'an update of an unknown journal type');
  failsOn(t, foldOrganisation, stream, { type: 'JournalTypeDeleted', data: { journalTypeId: unknown, code: 'X', at: NOW } }, ['JournalTypeDeleted', unknown], 'a deletion of an unknown journal type');
  failsOn(t, foldOrganisation, stream, exercise, ['AccountingExerciseCreated', (exercise.data as { exerciseId: string }).exerciseId], 'an exercise created twice');
  failsOn(t, foldOrganisation, stream, { type: 'ProductCreated', data: {} }, ['Organisation', 'ProductCreated'], "another aggregate's event type");
});

t.test('Ledger: a recorded stream folds; impossible events fail', async (t) => {
  const book = Book.create();
  const kept = book.postSimple();
  const deleted = book.postSimple();
  book.deleteEntry(deleted.data.entryId);
  const january = book.period('2026-01-15').periodId;
  const february = book.period('2026-02-15').periodId;
  book.closePeriod(february);
  book.reopenPeriod(february);
  const stream = [...book.history];
  const folded = foldLedger(stream as never[]) as typeof book.ledger;
  t.same(folded.entryOrder, [kept.data.entryId], 'the recorded stream folds to the same entries');

  const exerciseId = book.exercise.id;
  const unknown = id();
  failsOn(t, foldLedger, stream, { type: 'AccountingEntryDeleted', data: { exerciseId, entryId: unknown, number: 1, at: NOW } }, ['AccountingEntryDeleted', unknown], 'a deletion of an entry never posted');
  failsOn(t, foldLedger, stream, { ...kept, data: { ...kept.data, number: 2 } }, ['AccountingEntryPosted', kept.data.entryId], 'an entry posted twice');
  failsOn(t, foldLedger, stream, { type: 'AccountingPeriodReopened', data: { exerciseId, periodId: january, at: NOW } }, ['AccountingPeriodReopened', january], 'a reopening of an open period');
  const closed = [...stream, { type: 'AccountingPeriodClosed', data: { exerciseId, periodId: january, at: NOW } }];
  failsOn(t, foldLedger, closed, closed[closed.length - 1], ['AccountingPeriodClosed', january], 'a period closed twice');
  failsOn(t, foldLedger, closed, { type: 'AccountingEntryDeleted', data: { exerciseId, entryId: kept.data.entryId, number: 1, at: NOW } }, ['AccountingEntryDeleted', kept.data.entryId, january], 'a deletion in a closed period');
  failsOn(t, foldLedger, closed, { ...kept, data: { ...kept.data, entryId: unknown, number: 2 } }, ['AccountingEntryPosted', unknown, january], 'a posting in a closed period');
  const ended = [...stream, { type: 'AccountingExerciseClosed', data: { exerciseId, at: NOW } }];
  failsOn(t, foldLedger, ended, { type: 'AccountingPeriodReopened', data: { exerciseId, periodId: january, at: NOW } }, ['AccountingPeriodReopened', 'AccountingExerciseClosed'], 'an event after the exercise closed');
  failsOn(t, foldLedger, stream, { type: 'AccountingAccountCreated', data: {} }, ['Ledger', 'AccountingAccountCreated'], "another aggregate's event type");
});

t.test('Parties: a recorded stream folds; impossible events fail', async (t) => {
  const organisation = organisationState('ES');
  const settings = initialSettingsState();
  const state = initialPartiesState();
  const facts = { organisation, settings, usedByEntries: () => false };
  const stream: PartyEvent[] = [];
  const run = (command: Parameters<typeof decideParties>[0]) => decideParties(command, state, facts).forEach((e) => stream.push(evolveParties(state, e) && e));
  const input = { fields: {}, personal: { socialName: 'X' }, addresses: null, contacts: null, paymentTermLines: null };
  const customer = id();
  const gone = id();
  run({ type: 'CreateParty', kind: 'customer', partyId: customer, code: null, input, now: NOW });
  run({ type: 'CreateParty', kind: 'supplier', partyId: gone, code: null, input, now: NOW });
  run({ type: 'UpdateParty', kind: 'customer', partyId: customer, input: { ...input, fields: { disabled: true } }, now: NOW });
  run({ type: 'DeleteParty', kind: 'supplier', partyId: gone, now: NOW });
  run({ type: 'ApplyGdpr', kind: 'supplier', partyId: gone, now: NOW });
  const folded = foldParties(stream as never[]) as typeof state;
  t.same([...folded.parties.keys()], [customer], 'the recorded stream folds to the same parties');
  t.equal(folded.deleted.get(gone)?.gdprApplied, true);

  const created = stream[0];
  const unknown = id();
  const ref = (type: string, partyId: string, code = 'C00001') => ({ type, data: { partyId, kind: 'customer', code, at: NOW } });
  failsOn(t, foldParties, stream, created, ['CustomerCreated', customer], 'a party created twice');
  failsOn(t, foldParties, stream, { ...created, data: { ...created.data, partyId: unknown } }, ['CustomerCreated', unknown, 'C00001'], 'a second party with a code in use');
  failsOn(t, foldParties, stream, { ...created, type: 'SupplierCreated', data: { ...created.data, partyId: unknown, code: 'X1' } }, ['SupplierCreated', unknown], 'a created event of another kind than its data');
  failsOn(t, foldParties, stream, { type: 'CustomerUpdated', data: { partyId: unknown, kind: 'customer', code: 'C00009', changes: {}, addresses: null, contacts: null, paymentTermLines: null, personal: null, at: NOW } }, ['CustomerUpdated', unknown], 'an update of an unknown party');
  failsOn(t, foldParties, stream, ref('SupplierUpdated', customer), ['SupplierUpdated', customer], 'an update of a party of another kind');
  failsOn(t, foldParties, stream, ref('CustomerDeleted', unknown), ['CustomerDeleted', unknown], 'a deletion of an unknown party');
  failsOn(t, foldParties, stream, ref('SupplierDeleted', gone, 'S00001'), ['SupplierDeleted', gone], 'a party deleted twice');
  failsOn(t, foldParties, stream, ref('CustomerGdprApplied', unknown), ['CustomerGdprApplied', unknown], 'an erasure of an unknown party');
  failsOn(t, foldParties, stream, ref('SupplierGdprApplied', gone, 'S00001'), ['SupplierGdprApplied', gone], 'a party erased twice');
  failsOn(t, foldParties, stream, { type: 'ProductCreated', data: {} }, ['Parties', 'ProductCreated'], "another aggregate's event type");
  failsOn(t, foldParties, stream, { type: 'JobAreaCreated', data: {} }, ['Parties', 'JobAreaCreated'], "another aggregate's type ending like a party action");
});

t.test('SharedSettings: a recorded stream folds; impossible events fail', async (t) => {
  const organisation = organisationState('ES');
  const state = initialSettingsState();
  const stream: SettingsEvent[] = [];
  const run = (command: Parameters<typeof decideSettings>[0]) => decideSettings(command, state, organisation).forEach((e) => stream.push(evolveSettings(state, e) && e));
  const area = id();
  const mean = id();
  const term = id();
  run({ type: 'CreateBusinessArea', businessAreaId: area, name: 'Retail', now: NOW });
  run({ type: 'CreateJobArea', jobAreaId: id(), name: 'Sales', now: NOW });
  run({ type: 'CreatePaymentMean', paymentMeanId: mean, fields: { description: 'Transfer', type: 'UNDEFINED', inactive: false, code: null, iban: null, bic: null, bankName: null, accountingAccountId: null }, now: NOW });
  run({ type: 'CreatePaymentTerm', paymentTermId: term, code: 'NET30', name: 'Net 30', disabled: false, lines: [{ lineId: id(), order: null, condition: 'DAY_OF_PAYMENT', day: null, payDays: [30], type: 'REMAINING_AMOUNT', value: null, paymentMeanId: mean }], now: NOW });
  run({ type: 'DeletePaymentTerm', paymentTermId: term, now: NOW });
  run({ type: 'DeleteBusinessArea', businessAreaId: area, usedByParties: false, now: NOW });
  const folded = foldSettings(stream as never[]) as typeof state;
  t.same([...folded.paymentMeans.keys()], [mean], 'the recorded stream folds to the same settings');

  const unknown = id();
  failsOn(t, foldSettings, stream, stream[2], ['PaymentMeanCreated', mean], 'a payment mean created twice');
  failsOn(t, foldSettings, stream, { ...stream[1], data: { jobAreaId: unknown, name: 'sales ', at: NOW } }, ['JobAreaCreated', unknown], 'a second job area with a name in use');
  failsOn(t, foldSettings, stream, { type: 'BusinessAreaDeleted', data: { businessAreaId: area, name: 'Retail', at: NOW } }, ['BusinessAreaDeleted', area], 'a business area deleted twice');
  failsOn(t, foldSettings, stream, { type: 'PaymentMeanDeleted', data: { paymentMeanId: unknown, description: 'X', at: NOW } }, ['PaymentMeanDeleted', unknown], 'a deletion of an unknown payment mean');
  failsOn(t, foldSettings, stream, { type: 'PaymentTermDeleted', data: { paymentTermId: term, code: 'NET30', name: 'Net 30', at: NOW } }, ['PaymentTermDeleted', term], 'a payment term deleted twice');
  failsOn(t, foldSettings, stream, { type: 'CustomerCreated', data: {} }, ['SharedSettings', 'CustomerCreated'], "another aggregate's event type");
});

t.test('Catalog: a recorded stream folds; impossible events fail', async (t) => {
  const organisation = organisationState('ES');
  const state = initialCatalogState();
  const stream: ProductEvent[] = [];
  const fields = {
    name: 'Widget', category: 'PRODUCT' as const, salesUnitPrice: '1', lineDescription: null, comments: null, taxGroupId: null, taxTreatmentId: null, salesAccountingAccountId: null, purchaseAccountId: null,
    stockManaged: false, allowNegativeStock: false, salesDeliveryNoteBlockingEnabled: false, salesInvoiceBlockingEnabled: false, salesOrderBlockingEnabled: false,
  };
  const run = (command: Parameters<typeof decideCatalog>[0]) => decideCatalog(command, state, organisation).forEach((e) => stream.push(evolveCatalog(state, e) && e));
  const kept = id();
  const gone = id();
  run({ type: 'CreateProduct', productId: kept, fields: { ...fields, code: 'P1' }, now: NOW });
  run({ type: 'CreateProduct', productId: gone, fields: { ...fields, code: 'P2' }, now: NOW });
  run({ type: 'DeleteProduct', productId: gone, now: NOW });
  run({ type: 'UpdateProduct', productId: kept, changes: { category: 'SERVICE', obsolete: true }, now: NOW });
  const folded = foldCatalog(stream as never[]) as typeof state;
  t.same([...folded.products.keys()], [kept], 'the recorded stream folds to the same products');

  const unknown = id();
  failsOn(t, foldCatalog, stream, stream[0], ['ProductCreated', kept], 'a product created twice');
  failsOn(t, foldCatalog, stream, { ...stream[0], data: { ...stream[0].data, productId: unknown } }, ['ProductCreated', unknown, 'P1'], 'a second product with a code in use');
  failsOn(t, foldCatalog, stream, stream[2], ['ProductDeleted', gone], 'a product deleted twice');
  failsOn(t, foldCatalog, stream, { type: 'ProductDeleted', data: { productId: kept, code: 'P9', at: NOW } }, ['ProductDeleted', kept, 'P9'], 'a deletion naming another code');
  failsOn(t, foldCatalog, stream, { type: 'ProductUpdated', data: { productId: gone, code: 'P2', changes: {}, at: NOW } }, ['ProductUpdated', gone, 'P2'], 'an update of a deleted product');
  failsOn(t, foldCatalog, stream, { type: 'ProductRenamed', data: {} }, ['Catalog', 'ProductRenamed'], 'an unknown event type');
});

import t from 'tap';
import { Errors } from '../../domain/errors.ts';
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import { Book, NOW, businessErrorOf, credit, debit, id, partyIdOf, refuses } from './builders.ts';

const BANK = '5720000';
const CUSTOMER = '4300000';
const SALES = '7000000';
const VAT_OUT = '4770000';

t.test('posting balanced entries numbers them 1, 2, 3 without gaps', async (t) => {
  const book = Book.create('ES');
  const numbers = [book.postSimple('10.00'), book.postSimple('20.00'), book.postSimple('30.00')].map((e) => e.data.number);
  t.same(numbers, [1, 2, 3]);
  t.equal(book.ledger.entryOrder.length, 3);

  const posted = book.history[0];
  if (posted.type !== 'AccountingEntryPosted') throw new Error('expected AccountingEntryPosted');
  t.equal(posted.data.exerciseId, book.exercise.id);
  t.equal(posted.data.periodId, book.period('2026-01-15').periodId, 'the period of the date');
  t.equal(posted.data.currencyCode, 'EUR');
  t.equal(posted.data.sessionId, book.organisation.defaultSessionId);
  t.equal(posted.data.entryType, 'GENERAL');
  t.same(posted.data.lines.map((l) => [l.order, l.debitAmount, l.creditAmount]), [[1, '10.00', '0.00'], [2, '0.00', '10.00']],
    'amounts are formatted to the currency precision');
});

t.test('a three-line sales entry', async (t) => {
  const book = Book.create('ES');
  const event = book.post([debit(book.account(CUSTOMER), '121.00', 'C001'), credit(book.account(SALES), '100'), credit(book.account(VAT_OUT), 21)]);
  t.same(event.data.lines.map((l) => [l.debitAmount, l.creditAmount, l.thirdCode]), [['121.00', '0.00', 'C001'], ['0.00', '100.00', null], ['0.00', '21.00', null]]);
  t.equal(book.ledger.accountUsage.get(book.account(CUSTOMER)), 1, 'account usage counted');
  t.equal(book.ledger.journalTypeUsage.get(book.journal()), 1, 'journal type usage counted');
});

t.test("a line's third party must be a party of the organisation, as its account must be an account", async (t) => {
  const book = Book.create('ES');
  book.knownThirdParty = (code) => (code === 'C001' ? { id: partyIdOf(code), code, origin: 'CUSTOMER' } : undefined);
  const lines = (third: string) => [debit(book.account(CUSTOMER), '121.00', 'C001'), credit(book.account(SALES), '121.00', third)];
  const error = businessErrorOf(() => book.decide(book.postCommand(lines('NO-SUCH-PARTY'))));
  t.equal(error?.code, AccountingErrors.thirdPartyNotFound);
  t.same(error?.params, { thirdParty: 'NO-SUCH-PARTY', line: 2 }, 'naming the line');
  t.equal(book.post(lines('C001')).data.lines.length, 2, 'a known party posts');
  t.equal(book.post(lines('')).data.lines.length, 2, 'an empty code is no third party');
});

t.test('amount validation', async (t) => {
  const book = Book.create('ES');
  const bank = book.account(BANK);
  const customer = book.account(CUSTOMER);
  const refusePost = (lines: Parameters<typeof book.postCommand>[0], code: string, message: string) =>
    refuses(t, () => book.decide(book.postCommand(lines)), code, message);

  refusePost([debit(bank, '100.00'), credit(customer, '99.99')], AccountingErrors.unbalancedEntry, 'unbalanced by one cent');
  refusePost([debit(bank, '100.00'), debit(customer, '100.00')], AccountingErrors.unbalancedEntry, 'debits only');
  refusePost(
    [{ subAccountId: bank, thirdCode: null, description: null, debitAmount: '50.00', creditAmount: '50.00' }, credit(customer, '0.01')],
    AccountingErrors.invalidLineAmount, 'both sides non-zero on one line',
  );
  refusePost(
    [{ subAccountId: bank, thirdCode: null, description: null, debitAmount: '0.00', creditAmount: null }, credit(customer, '0.00')],
    AccountingErrors.invalidLineAmount, 'no side carries an amount',
  );
  refusePost([debit(bank, '-100.00'), credit(customer, '-100.00')], AccountingErrors.invalidLineAmount, 'negative amounts');
  refusePost([debit(bank, '-0'), credit(customer, '0')], AccountingErrors.invalidLineAmount, 'negative zero');
  refusePost([debit(bank, '10.005'), credit(customer, '10.005')], AccountingErrors.invalidLineAmount, '3 decimals for EUR (precision 2)');
  refusePost([debit(bank, 0.1 + 0.2), credit(customer, 0.3)], AccountingErrors.invalidLineAmount, 'a float artefact (0.30000000000000004)');
  refusePost([debit(bank, 'abc'), credit(customer, 'abc')], AccountingErrors.invalidLineAmount, 'not a number');
  refusePost([debit(bank, 'NaN'), credit(customer, 'NaN')], AccountingErrors.invalidLineAmount, 'NaN');
  refusePost([debit(bank, 'Infinity'), credit(customer, 'Infinity')], AccountingErrors.invalidLineAmount, 'Infinity');
  refusePost([debit(bank, '1000000000000000'), credit(customer, '1000000000000000')], AccountingErrors.invalidLineAmount, 'above the maximum amount');
  refusePost([debit(bank, '100.00')], AccountingErrors.tooFewLines, 'a single line');
  refusePost([], AccountingErrors.tooFewLines, 'no line');

  t.test('accepted spellings', async (t) => {
    for (const [raw, formatted] of [['100', '100.00'], ['100.5', '100.50'], [' 7.25 ', '7.25'], [12.34, '12.34'], ['999999999999999', '999999999999999.00']] as const) {
      const event = book.post([debit(bank, raw), credit(customer, raw)]);
      t.equal(event.data.lines[0].debitAmount, formatted, `${JSON.stringify(raw)} -> ${formatted}`);
    }
  });

  t.test('the maximum line amount is 999999999999999 (no cents above it)', async (t) => {
    // Current behaviour (money.ts MAX_AMOUNT): amounts in ]999999999999999, 999999999999999.99] are refused.
    refuses(t, () => book.decide(book.postCommand([debit(bank, '999999999999999.01'), credit(customer, '999999999999999.01')])), AccountingErrors.invalidLineAmount);
  });

  t.test('non-decimal notations are not amounts', async (t) => {
    // decimal.js alone would read hex, binary, octal and exponent forms ('0x10' -> 16).
    for (const raw of ['0x10', '0b10000', '0o20', '1e2', ' ', '1.', '.5', '+1', '1,00']) {
      const error = businessErrorOf(() => book.decide(book.postCommand([debit(bank, raw), credit(customer, '16.00')])));
      t.equal(error?.code, AccountingErrors.invalidLineAmount, `${raw} is refused`);
    }
  });
});

t.test('accounts must exist, be active and be at posting level', async (t) => {
  const book = Book.create('ES');
  const customer = book.account(CUSTOMER);
  refuses(t, () => book.decide(book.postCommand([debit(book.account('4'), '10.00'), credit(customer, '10.00')])),
    AccountingErrors.accountNotPostable, 'a GROUP (class) heading');
  refuses(t, () => book.decide(book.postCommand([debit(book.account('57'), '10.00'), credit(customer, '10.00')])),
    AccountingErrors.accountNotPostable, 'a GROUP heading');
  refuses(t, () => book.decide(book.postCommand([debit(book.account('572'), '10.00'), credit(customer, '10.00')])),
    AccountingErrors.accountNotPostable, 'an ACCOUNT heading');
  refuses(t, () => book.decide(book.postCommand([debit(id(), '10.00'), credit(customer, '10.00')])), AccountingErrors.accountNotFound, 'an unknown account id');

  const bank = book.account(BANK);
  book.applyOrganisation({ type: 'AccountingAccountUpdated', data: { accountId: bank, changes: { deactivated: true }, at: NOW } });
  refuses(t, () => book.decide(book.postCommand([debit(bank, '10.00'), credit(customer, '10.00')])), AccountingErrors.accountDeactivated, 'a deactivated account');

  book.applyOrganisation({ type: 'AccountingAccountUpdated', data: { accountId: bank, changes: { deactivated: false }, at: NOW } });
  t.equal(book.post([debit(bank, '10.00'), credit(customer, '10.00')]).data.number, 1, 'reactivated account accepted');
});

t.test('journal types must exist and be active', async (t) => {
  const book = Book.create('ES');
  refuses(t, () => book.decide(book.postCommand([debit(book.account(BANK), '1'), credit(book.account(CUSTOMER), '1')], { journalTypeId: id() })),
    AccountingErrors.journalTypeNotFound);
  const ven = book.journal('VEN');
  book.applyOrganisation({ type: 'JournalTypeUpdated', data: { journalTypeId: ven, changes: { deactivated: true }, at: NOW } });
  refuses(t, () => book.decide(book.postCommand([debit(book.account(BANK), '1'), credit(book.account(CUSTOMER), '1')], { journalTypeId: ven })),
    AccountingErrors.journalTypeDeactivated);
});

t.test('the date must fall in the exercise', async (t) => {
  const book = Book.create('ES');
  for (const date of ['2025-12-31', '2027-01-01']) {
    refuses(t, () => book.decide(book.postCommand([debit(book.account(BANK), '1'), credit(book.account(CUSTOMER), '1')], { date })),
      AccountingErrors.noExerciseForDate, date);
  }
  t.equal(book.postSimple('1', { date: '2026-12-31' }).data.periodId, book.period('2026-12-31').periodId, 'last day accepted');
});

t.test('an entry id cannot be posted twice', async (t) => {
  const book = Book.create('ES');
  const { data } = book.postSimple();
  refuses(t, () => book.decide(book.postCommand([debit(book.account(BANK), '1'), credit(book.account(CUSTOMER), '1')], { entryId: data.entryId })),
    Errors.documentIdAlreadyExists);
});

t.test('closed periods refuse entries; reopened periods accept them again', async (t) => {
  const book = Book.create('ES');
  const january = book.period('2026-01-15');
  book.closePeriod(january.periodId);
  t.ok(book.ledger.closedPeriods.has(january.periodId));
  refuses(t, () => book.decide(book.postCommand([debit(book.account(BANK), '1'), credit(book.account(CUSTOMER), '1')], { date: '2026-01-31' })),
    AccountingErrors.periodClosed, 'posting in the closed period');
  t.equal(book.postSimple('1', { date: '2026-02-01' }).data.number, 1, 'the next period is still open');

  refuses(t, () => book.decide({ type: 'CloseAccountingPeriod', periodId: january.periodId, now: NOW }), AccountingErrors.periodAlreadyClosed);
  refuses(t, () => book.decide({ type: 'CloseAccountingPeriod', periodId: id(), now: NOW }), AccountingErrors.periodNotFound);
  refuses(t, () => book.decide({ type: 'ReopenAccountingPeriod', periodId: book.period('2026-03-01').periodId, now: NOW }), AccountingErrors.periodNotClosed);

  book.reopenPeriod(january.periodId);
  t.equal(book.postSimple('1', { date: '2026-01-31' }).data.number, 2, 'the reopened period accepts entries');
});

t.test('a closed exercise refuses everything', async (t) => {
  const book = Book.create('ES');
  const entry = book.postSimple();
  const events = book.closeExercise();
  t.equal(events.length, 13, 'closes the 12 open periods, then the exercise');
  t.equal(events.at(-1)?.type, 'AccountingExerciseClosed');
  t.ok(book.ledger.closed);
  t.equal(book.ledger.closedPeriods.size, 12);

  const commands = [
    book.postCommand([debit(book.account(BANK), '1'), credit(book.account(CUSTOMER), '1')]),
    { type: 'DeleteAccountingEntry' as const, entryId: entry.data.entryId, now: NOW },
    { type: 'CloseAccountingPeriod' as const, periodId: book.period('2026-05-01').periodId, now: NOW },
    { type: 'ReopenAccountingPeriod' as const, periodId: book.period('2026-05-01').periodId, now: NOW },
    { type: 'CloseAccountingExercise' as const, now: NOW },
  ];
  for (const command of commands) refuses(t, () => book.decide(command), AccountingErrors.exerciseClosed, command.type);
});

t.test('closing an exercise with some periods already closed closes only the open ones', async (t) => {
  const book = Book.create('ES');
  book.closePeriod(book.period('2026-01-01').periodId);
  const events = book.closeExercise();
  t.equal(events.filter((e) => e.type === 'AccountingPeriodClosed').length, 11);
});

t.test('deleting an entry renumbers the ones after it', async (t) => {
  const book = Book.create('ES');
  const [first, second, third] = [book.postSimple('1'), book.postSimple('2'), book.postSimple('3')].map((e) => e.data.entryId);

  const [deleted] = book.deleteEntry(second);
  t.same(deleted, { type: 'AccountingEntryDeleted', data: { exerciseId: book.exercise.id, entryId: second, number: 2, at: NOW } });
  t.same(book.ledger.entryOrder, [first, third], 'entry 3 is now number 2');
  t.notOk(book.ledger.entries.has(second));
  t.equal(book.ledger.accountUsage.get(book.account(BANK)), 2, 'usage decremented');

  const next = book.postSimple('4');
  t.equal(next.data.number, 3, 'the next entry gets number 3');
  t.same(book.ledger.entryOrder, [first, third, next.data.entryId]);

  refuses(t, () => book.decide({ type: 'DeleteAccountingEntry', entryId: second, now: NOW }), AccountingErrors.entryNotFound, 'deleting twice');
  refuses(t, () => book.decide({ type: 'DeleteAccountingEntry', entryId: id(), now: NOW }), AccountingErrors.entryNotFound, 'unknown entry');

  book.deleteEntry(first);
  book.deleteEntry(third);
  book.deleteEntry(next.data.entryId);
  t.same(book.ledger.entryOrder, []);
  t.equal(book.ledger.accountUsage.size, 0, 'no usage left');
  t.equal(book.ledger.journalTypeUsage.size, 0, 'no journal usage left');
  t.equal(book.postSimple().data.number, 1, 'numbering restarts at 1');
});

t.test('deleting an entry in a closed period is refused', async (t) => {
  const book = Book.create('ES');
  const january = book.postSimple('1', { date: '2026-01-10' }).data.entryId;
  const february = book.postSimple('1', { date: '2026-02-10' }).data.entryId;
  book.closePeriod(book.period('2026-01-10').periodId);
  refuses(t, () => book.decide({ type: 'DeleteAccountingEntry', entryId: january, now: NOW }), AccountingErrors.entryClosed);
  book.deleteEntry(february);
  t.same(book.ledger.entryOrder, [january], 'an entry of an open period can still be deleted');
});

t.test('lines of the same account, third code and side are merged', async (t) => {
  const book = Book.create('ES');
  const bank = book.account(BANK);
  const customer = book.account(CUSTOMER);
  const command = book.postCommand([debit(bank, '10.10'), debit(bank, '20.20'), credit(customer, '30.30')]);
  const [event] = book.execute(command);
  if (event.type !== 'AccountingEntryPosted') throw new Error('expected AccountingEntryPosted');
  t.same(
    event.data.lines.map((l) => ({ lineId: l.lineId, order: l.order, subAccountId: l.subAccountId, debitAmount: l.debitAmount, creditAmount: l.creditAmount })),
    [
      { lineId: command.lineIds[0], order: 1, subAccountId: bank, debitAmount: '30.30', creditAmount: '0.00' },
      { lineId: command.lineIds[1], order: 2, subAccountId: customer, debitAmount: '0.00', creditAmount: '30.30' },
    ],
    'the two debit lines on 5720000 became one',
  );
  t.equal(book.ledger.accountUsage.get(bank), 1, 'usage counts posted lines');

  t.test('different third codes or sides are kept apart', async (t) => {
    const { data } = book.post([
      debit(customer, '5.00', 'C001'),
      debit(customer, '6.00', 'C002'),
      debit(customer, '7.00', 'C001'),
      credit(customer, '18.00', 'C001'),
    ]);
    t.same(data.lines.map((l) => [l.thirdCode, l.debitAmount, l.creditAmount]), [
      ['C001', '12.00', '0.00'],
      ['C002', '6.00', '0.00'],
      ['C001', '0.00', '18.00'],
    ]);
  });
});

t.test('merging respects the maximum amount and treats an empty third code as none', async (t) => {
  const book = Book.create('ES');
  const bank = book.account('5720000');
  const capital = book.account('1000000');
  refuses(t, () => book.decide(book.postCommand([debit(bank, '999999999999999'), debit(bank, '999999999999999'), credit(capital, '999999999999999'), credit(capital, '999999999999999')])), AccountingErrors.invalidLineAmount, 'merged sum above the maximum');
  const [posted] = book.decide(book.postCommand([{ ...debit(bank, '1.00'), thirdCode: '' }, { ...debit(bank, '2.00'), thirdCode: null }, credit(capital, '3.00')]));
  t.equal(posted.type === 'AccountingEntryPosted' && posted.data.lines.length, 2, "'' and null merge");
});

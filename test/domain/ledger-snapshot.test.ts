/**
 * A ledger loaded from its snapshot is the ledger folded from every event: random histories of posts
 * (with and without third-party codes), deletions, period closes and reopens, snapshotted through JSON.
 */
import fc from 'fast-check';
import t from 'tap';
import { ledgerFromSnapshot, ledgerSnapshot } from '../../domain/accounting/ledger-snapshot.ts';
import type { LedgerState } from '../../domain/accounting/ledger.ts';
import { Book, credit, debit } from './builders.ts';

/** Everything LedgerState holds, in a form whose equality does not depend on insertion order. */
const canonical = (s: LedgerState) => ({
  closed: s.closed,
  closings: s.closings,
  closedWithExercise: s.closedWithExercise,
  closedPeriods: [...s.closedPeriods].sort(),
  entryOrder: s.entryOrder,
  entries: s.entryOrder.map((id) => s.entries.get(id)),
  entryCount: s.entries.size,
  usage: [s.accountUsage, s.journalTypeUsage, s.thirdCodeUsage].map((m) => [...m].sort(([a], [b]) => a.localeCompare(b))),
});

type Step = { kind: 'post'; account: number; third: string | null; journal: number; month: number } | { kind: 'delete'; pick: number } | { kind: 'close' | 'reopen'; month: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('post' as const), account: fc.nat(3), third: fc.option(fc.constantFrom('C001', 'P002', 'X')), journal: fc.nat(1), month: fc.nat(11) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('close' as const, 'reopen' as const), month: fc.nat(11) }) },
);

t.test('snapshot round trip equals the folded ledger', async (t) => {
  const ACCOUNTS = ['5720000', '4300000', '7000000', '4770000'];
  let entriesSeen = 0;
  fc.assert(
    fc.property(fc.array(step, { maxLength: 40, size: 'max' }), (steps) => {
      const book = Book.create();
      const journals = ['GEN', [...book.organisation.journalTypeIdByCode.keys()].find((c) => c !== 'GEN')!];
      for (const s of steps) {
        try {
          if (s.kind === 'post') {
            book.post([debit(book.account(ACCOUNTS[s.account]), '10.00', s.third), credit(book.account(ACCOUNTS[(s.account + 1) % 4]), '10.00')], { date: book.exercise.periods[s.month].startDate, journalTypeId: book.journal(journals[s.journal]) });
          } else if (s.kind === 'delete' && book.ledger.entryOrder.length > 0) {
            book.deleteEntry(book.ledger.entryOrder[s.pick % book.ledger.entryOrder.length]);
          } else if (s.kind === 'close' || s.kind === 'reopen') {
            const period = book.exercise.periods[s.month].periodId;
            if (s.kind === 'close') book.closePeriod(period);
            else book.reopenPeriod(period);
          }
        } catch {
          // refused by the decider (a closed period, nothing to reopen): the history goes on without it
        }
      }
      entriesSeen += book.ledger.entryOrder.length;
      const restored = ledgerFromSnapshot(JSON.parse(JSON.stringify(ledgerSnapshot(book.ledger))));
      t.same(canonical(restored), canonical(book.ledger));
    }),
    { numRuns: 150 },
  );
  t.ok(entriesSeen > 1000, `histories held ${entriesSeen} live entries in all`);
});

t.test('a malformed snapshot is refused, not half read', async (t) => {
  const book = Book.create();
  book.postSimple();
  const snapshot = ledgerSnapshot(book.ledger);
  t.throws(() => ledgerFromSnapshot({ ...snapshot, entries: snapshot.entries.slice(0, -1) }), /malformed/);
});

/**
 * Property tests of the Ledger decider. Each property's predicate throws on the first broken
 * expectation (so fast-check can shrink to a minimal counterexample); `holds` reports the outcome
 * to tap, with fast-check's counterexample in the failure message. Counters checked with t.ok make
 * sure the generators exercise both the accepted and the refused branches.
 */
import fc from 'fast-check';
import t from 'tap';
import { Decimal } from 'decimal.js';
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import { MAX_AMOUNT } from '../../domain/money.ts';
import type { LedgerEvent, LineInput } from '../../domain/accounting/ledger.ts';
import { Book, NOW, businessErrorOf, id } from './builders.ts';
import { NUM_RUNS, expect, holds } from '../helpers/property.ts';

/** Integer cents -> decimal text with exactly two decimals ('-1234' -> '-12.34'), never via floats. */
function centsText(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

const sumDecimal = (values: string[]) => values.reduce((sum, v) => sum.plus(v), new Decimal(0));

type Posted = Extract<LedgerEvent, { type: 'AccountingEntryPosted' }>;

// Posting accounts of the ES chart used by the generated entries.
const ACCOUNT_CODES = ['5720000', '4300000', '7000000', '4770000'] as const;

// ---------------------------------------------------------------------------------------------
// Property 1: acceptance rule and balance of the posted lines

interface GeneratedLine {
  account: number;
  debit: bigint | null; // cents; null = side left empty
  credit: bigint | null;
  emptyAs: null | '' | '0' | '0.00'; // how an empty side is spelled
}

const cents = fc.oneof(
  { weight: 18, arbitrary: fc.bigInt({ min: 1n, max: 10_000n }) },
  { weight: 1, arbitrary: fc.constant(0n) },
  { weight: 1, arbitrary: fc.bigInt({ min: -10_000n, max: -1n }) },
);

const lineArb: fc.Arbitrary<GeneratedLine> = fc
  .record({
    account: fc.integer({ min: 0, max: ACCOUNT_CODES.length - 1 }),
    shape: fc.oneof(
      { weight: 12, arbitrary: fc.constant('debit' as const) },
      { weight: 12, arbitrary: fc.constant('credit' as const) },
      { weight: 1, arbitrary: fc.constant('both' as const) },
      { weight: 1, arbitrary: fc.constant('none' as const) },
    ),
    amount: cents,
    other: cents,
    emptyAs: fc.constantFrom(null, '', '0', '0.00'),
  })
  .map(({ account, shape, amount, other, emptyAs }) => ({
    account,
    debit: shape === 'debit' || shape === 'both' ? amount : null,
    credit: shape === 'credit' ? amount : shape === 'both' ? other : null,
    emptyAs,
  }));

/** Entries, three quarters of them completed with a line that balances the valid-looking lines. */
const entryArb = fc
  .record({ lines: fc.array(lineArb, { maxLength: 6 }), balance: fc.integer({ min: 0, max: 3 }).map((n) => n > 0), balanceAccount: fc.integer({ min: 0, max: ACCOUNT_CODES.length - 1 }) })
  .map(({ lines, balance, balanceAccount }) => {
    if (!balance || lines.length === 0) return lines;
    const diff = lines.reduce((sum, l) => sum + (l.debit ?? 0n) - (l.credit ?? 0n), 0n);
    if (diff === 0n) return lines;
    const line: GeneratedLine = diff > 0n
      ? { account: balanceAccount, debit: null, credit: diff, emptyAs: null }
      : { account: balanceAccount, debit: -diff, credit: null, emptyAs: null };
    return [...lines, line];
  });

const isValidLine = (l: GeneratedLine) => {
  const d = l.debit ?? 0n;
  const c = l.credit ?? 0n;
  return d >= 0n && c >= 0n && (d === 0n) !== (c === 0n);
};

/** The decider's rule, restated: the error expected for `lines`, or null when the entry is accepted. */
function expectedRefusal(lines: GeneratedLine[]): string | null {
  if (lines.length < 2) return AccountingErrors.tooFewLines;
  if (!lines.every(isValidLine)) return AccountingErrors.invalidLineAmount;
  const debits = lines.reduce((s, l) => s + (l.debit ?? 0n), 0n);
  const credits = lines.reduce((s, l) => s + (l.credit ?? 0n), 0n);
  return debits === credits ? null : AccountingErrors.unbalancedEntry;
}

t.test('property 1: an entry is accepted iff it has >= 2 one-sided positive lines and balances', async (t) => {
  const seen = { accepted: 0, tooFewLines: 0, invalidLineAmount: 0, unbalancedEntry: 0 };
  holds(t, fc.property(entryArb, (generated) => {
    const book = Book.create('ES');
    const accounts = ACCOUNT_CODES.map((code) => book.account(code));
    const lines: LineInput[] = generated.map((l) => ({
      subAccountId: accounts[l.account],
      thirdCode: null,
      description: null,
      debitAmount: l.debit === null ? l.emptyAs : centsText(l.debit),
      creditAmount: l.credit === null ? l.emptyAs : centsText(l.credit),
    }));
    const command = book.postCommand(lines);
    const expected = expectedRefusal(generated);
    let events: LedgerEvent[] = [];
    const error = businessErrorOf(() => { events = book.decide(command); });

    if (expected !== null) {
      expect(error?.code === expected, `expected ${expected}, got ${error?.code ?? 'acceptance'}`);
      seen[expected === AccountingErrors.tooFewLines ? 'tooFewLines' : expected === AccountingErrors.invalidLineAmount ? 'invalidLineAmount' : 'unbalancedEntry']++;
      return;
    }
    expect(error === undefined, `expected acceptance, got ${error?.code}`);
    seen.accepted++;
    expect(events.length === 1 && events[0].type === 'AccountingEntryPosted', 'one AccountingEntryPosted');
    const posted = (events[0] as Posted).data.lines;
    expect(posted.every((l) => /^\d+\.\d{2}$/.test(l.debitAmount) && /^\d+\.\d{2}$/.test(l.creditAmount)), 'amounts have 2 decimals');
    expect(posted.every((l) => new Decimal(l.debitAmount).isZero() !== new Decimal(l.creditAmount).isZero()), 'posted lines are one-sided');
    const debitTotal = sumDecimal(posted.map((l) => l.debitAmount));
    const creditTotal = sumDecimal(posted.map((l) => l.creditAmount));
    const inputTotal = new Decimal(centsText(generated.reduce((s, l) => s + (l.debit ?? 0n), 0n)));
    expect(debitTotal.eq(creditTotal), `posted debits ${debitTotal} = credits ${creditTotal}`);
    expect(debitTotal.eq(inputTotal), `posted total ${debitTotal} = input total ${inputTotal}`);
    expect(posted.length <= generated.length, 'merging never adds lines');
  }));
  t.ok(seen.accepted > 20, `accepted entries generated (${seen.accepted})`);
  t.ok(seen.unbalancedEntry > 5, `unbalanced entries generated (${seen.unbalancedEntry})`);
  t.ok(seen.invalidLineAmount > 5, `invalid lines generated (${seen.invalidLineAmount})`);
  t.ok(seen.tooFewLines > 5, `short entries generated (${seen.tooFewLines})`);
});

// ---------------------------------------------------------------------------------------------
// Property 2: gap-free numbering under random posts and deletes

type Step = { kind: 'post'; cents: bigint; month: number } | { kind: 'delete'; pick: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('post' as const), cents: fc.bigInt({ min: 1n, max: 1_000_000n }), month: fc.integer({ min: 1, max: 12 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
);

t.test('property 2: random posts and deletes keep entry numbers gap-free', async (t) => {
  let maxLive = 0;
  let deletes = 0;
  holds(t, fc.property(fc.array(stepArb, { maxLength: 60, size: 'max' }), (steps) => {
    const book = Book.create('ES');
    const bank = book.account('5720000');
    const customer = book.account('4300000');
    const model: string[] = []; // live entry ids in number order
    let posted = 0;
    let deleted = 0;

    for (const step of steps) {
      const before = book.ledger.entryOrder.length;
      if (step.kind === 'post') {
        const amount = centsText(step.cents);
        const date = `2026-${String(step.month).padStart(2, '0')}-15`;
        const command = book.postCommand(
          [{ subAccountId: bank, thirdCode: null, description: null, debitAmount: amount, creditAmount: null },
            { subAccountId: customer, thirdCode: null, description: null, debitAmount: null, creditAmount: amount }],
          { date },
        );
        const [event] = book.execute(command);
        expect(event.type === 'AccountingEntryPosted', 'posted');
        expect(event.data.number === before + 1, `posted number ${event.data.number} = entryOrder.length + 1 (${before + 1})`);
        model.push(command.entryId);
        posted++;
      } else if (model.length === 0) {
        const error = businessErrorOf(() => book.decide({ type: 'DeleteAccountingEntry', entryId: id(), now: NOW }));
        expect(error?.code === AccountingErrors.entryNotFound, 'deleting with no entry is refused');
      } else {
        const index = step.pick % model.length;
        const [event] = book.execute({ type: 'DeleteAccountingEntry', entryId: model[index], now: NOW });
        expect(event.type === 'AccountingEntryDeleted', 'deleted');
        expect(event.data.number === index + 1, `deleted number ${event.data.number} = position ${index + 1}`);
        model.splice(index, 1);
        deleted++;
        deletes++;
      }
      expect(book.ledger.entryOrder.length === posted - deleted, `entryOrder.length ${book.ledger.entryOrder.length} = posted - deleted (${posted - deleted})`);
      expect(book.ledger.entryOrder.every((entryId, i) => entryId === model[i]), 'entryOrder follows the model');
      expect(book.ledger.entries.size === model.length, 'one EntryState per live entry');
      maxLive = Math.max(maxLive, model.length);
    }

    // Replaying the whole history from scratch gives the same numbering.
    const replayed = Book.create('ES');
    replayed.apply(book.history);
    expect(replayed.ledger.entryOrder.join() === book.ledger.entryOrder.join(), 'replay gives the same order');
  }));
  t.ok(maxLive >= 10, `long books generated (max ${maxLive} live entries)`);
  t.ok(deletes > 100, `deletes generated (${deletes})`);
});

// ---------------------------------------------------------------------------------------------
// Property 3: large amounts are summed exactly (no JS float on the way)

const MAX_CENTS = BigInt(MAX_AMOUNT.times(100).toFixed(0)); // 999999999999999.00 -> 15 integer digits
const bigCents = fc.oneof(
  fc.bigInt({ min: 1n, max: MAX_CENTS }),
  fc.bigInt({ min: MAX_CENTS - 10_000n, max: MAX_CENTS }), // near the maximum: 17 significant digits
);

t.test('property 3: amounts of up to 15 integer digits are summed exactly', async (t) => {
  let floatWouldBeWrong = 0;
  holds(t, fc.property(
    fc.array(fc.tuple(bigCents, fc.integer({ min: 0, max: 1000 })), { minLength: 1, maxLength: 10 }),
    (parts) => {
      const book = Book.create('ES');
      const bank = book.account('5720000');
      const sales = book.account('7000000');
      // Debits as generated; each credit splits its debit in two (both parts <= the maximum amount).
      const lines: LineInput[] = [];
      parts.forEach(([amount, perMille], i) => {
        const first = (amount * BigInt(perMille)) / 1000n;
        // Distinct third codes: no merging, the posted lines are the input lines.
        lines.push({ subAccountId: bank, thirdCode: `D${i}`, description: null, debitAmount: centsText(amount), creditAmount: null });
        [first, amount - first].filter((p) => p > 0n).forEach((part, j) => {
          lines.push({ subAccountId: sales, thirdCode: `C${i}.${j}`, description: null, debitAmount: null, creditAmount: centsText(part) });
        });
      });
      const totalCents = parts.reduce((s, [amount]) => s + amount, 0n);
      const expectedTotal = centsText(totalCents);
      if (parts.map(([a]) => Number(centsText(a))).reduce((s, v) => s + v, 0).toFixed(2) !== expectedTotal) floatWouldBeWrong++;

      const [event] = book.execute(book.postCommand(lines));
      expect(event.type === 'AccountingEntryPosted', 'posted');
      const posted = event.data.lines;
      expect(posted.length === lines.length, 'no line merged');
      posted.forEach((l, i) => {
        const input = lines[i];
        expect(l.debitAmount === (input.debitAmount ?? '0.00'), `line ${i + 1} debit kept exactly (${l.debitAmount} vs ${input.debitAmount})`);
        expect(l.creditAmount === (input.creditAmount ?? '0.00'), `line ${i + 1} credit kept exactly (${l.creditAmount} vs ${input.creditAmount})`);
      });
      const debitTotal = sumDecimal(posted.map((l) => l.debitAmount));
      const creditTotal = sumDecimal(posted.map((l) => l.creditAmount));
      expect(debitTotal.toFixed(2) === expectedTotal, `debit total ${debitTotal.toFixed(2)} = ${expectedTotal}`);
      expect(creditTotal.toFixed(2) === expectedTotal, `credit total ${creditTotal.toFixed(2)} = ${expectedTotal}`);
    },
  ));
  t.ok(floatWouldBeWrong > 0, `generated sums a JS float gets wrong (${floatWouldBeWrong} of ${NUM_RUNS})`);
});

t.test('an unbalance of one cent between huge totals is detected', async (t) => {
  const book = Book.create('ES');
  const bank = book.account('5720000');
  const sales = book.account('7000000');
  const lines: LineInput[] = [
    { subAccountId: bank, thirdCode: 'A', description: null, debitAmount: '999999999999999.00', creditAmount: null },
    { subAccountId: bank, thirdCode: 'B', description: null, debitAmount: '999999999999998.99', creditAmount: null },
    { subAccountId: sales, thirdCode: 'A', description: null, debitAmount: null, creditAmount: '999999999999999.00' },
    { subAccountId: sales, thirdCode: 'B', description: null, debitAmount: null, creditAmount: '999999999999999.00' },
  ];
  // As floats, 999999999999998.99 + 999999999999999.00 and 999999999999999.00 * 2 are the same number.
  t.equal(999999999999998.99 + 999999999999999.0, 999999999999999.0 * 2, 'floats cannot tell these totals apart');
  const error = businessErrorOf(() => book.decide(book.postCommand(lines)));
  t.equal(error?.code, AccountingErrors.unbalancedEntry, 'the decider can');
});

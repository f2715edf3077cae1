/**
 * The year end, pure: each country's result accounts and year-end journals are in its chart and standard journals;
 * for random ledgers of every chart, the close leaves income and expense at zero with the result in the country's
 * account, the opening it makes carries exactly what temporaryOpening said before the close (balanced, no income or
 * expense), ES's closing entry zeroes every account, and reopening gives back the balances and periods as before.
 */
import fc from 'fast-check';
import t from 'tap';
import { closesIntoResult, closingEntries, openingLines, RESULT_ACCOUNTS, temporaryOpening, yearEndBalances, yearEndJournalId, type YearEndBalance, type YearEndLine } from '../../domain/accounting/year-end.ts';
import { OrganisationCountry } from '../../domain/enums.ts';
import { Decimal } from '../../domain/money.ts';
import { masterChartFor } from '../../domain/reference/charts.ts';
import { Book, NOW, credit, debit, id } from './builders.ts';

t.test('every country closes into equity accounts of its chart, on its CLOSING and CARRY_FORWARD journals', async (t) => {
  for (const country of OrganisationCountry) {
    const chart = masterChartFor(country);
    for (const code of Object.values(RESULT_ACCOUNTS[country])) {
      t.match(chart.lines.find((l) => l.code === code), { accountLevel: 'SUB_ACCOUNT', nature: 'EQUITY' }, `${country}: ${code} is a posting equity account`);
    }
    const book = Book.create(country);
    t.ok(yearEndJournalId(book.organisation, 'CLOSING') && yearEndJournalId(book.organisation, 'CARRY_FORWARD'), `${country}: its year-end journals`);
  }
});

const net = (b: { debit: Decimal; credit: Decimal }) => b.debit.minus(b.credit);
const keyOf = (l: { subAccountId: string; thirdCode: string | null }) => `${l.subAccountId}|${l.thirdCode ?? ''}`;
/** Per account and third party, the non-zero nets. */
const nets = (balances: readonly YearEndBalance[]) => Object.fromEntries(balances.filter((b) => !net(b).isZero()).map((b) => [keyOf(b), net(b).toFixed(2)]).sort());
const lineNets = (lines: readonly YearEndLine[]) => Object.fromEntries(lines.map((l) => [keyOf(l), new Decimal(l.debitAmount).minus(l.creditAmount).toFixed(2)]).sort());

const entry = fc.record({ debit: fc.nat(30), credit: fc.nat(30), cents: fc.integer({ min: 1, max: 10_000_000 }), month: fc.nat(11), third: fc.option(fc.constantFrom('C001', 'C002')) });

t.test('random ledgers of every chart: close, opening and reopening', async (t) => {
  for (const country of ['ES', 'FR', 'DE', 'GB', 'US'] as const) {
    fc.assert(fc.property(fc.array(entry, { maxLength: 25 }), fc.nat(11), (entries, closedMonth) => {
      const book = Book.create(country);
      const org = book.organisation;
      const journalTypeId = [...org.journalTypes.values()].find((j) => j.type === 'GENERAL')!.id;
      const postable = [...org.accounts.values()].filter((a) => a.accountLevel === 'SUB_ACCOUNT').map((a) => a.id);
      for (const e of entries) {
        const [d, c] = [postable[e.debit % postable.length], postable[(e.debit + 1 + (e.credit % (postable.length - 1))) % postable.length]];
        const amount = (e.cents / 100).toFixed(2);
        const lines = [debit(d, amount, e.third), credit(c, amount)];
        book.execute({ type: 'PostAccountingEntry', entryId: id(), lineIds: lines.map(() => id()), date: book.exercise.periods[e.month].startDate, documentDate: null, documentNumber: null, description: null, journalTypeId, lines, sourceType: 'ACCOUNTING', now: NOW });
      }
      // A period closed before the year end: the close posts into it all the same, and reopening leaves it closed.
      book.execute({ type: 'CloseAccountingPeriod', periodId: book.exercise.periods[closedMonth].periodId, now: NOW });
      const before = yearEndBalances(book.history);
      const closedBefore = [...book.ledger.closedPeriods].sort();
      const temporary = temporaryOpening(org, before);
      const ref = { id: book.exercise.id, startDate: book.exercise.startDate, endDate: book.exercise.endDate, label: '2026' };
      book.execute({ type: 'CloseAccountingExercise', closing: closingEntries(org, ref, before, () => id()), now: NOW });

      const after = yearEndBalances(book.history, ['CLOSURE_EXERCISE']);
      const result = before.filter((b) => closesIntoResult(org.accounts.get(b.subAccountId), org.country)).reduce((s, b) => s.plus(net(b)), new Decimal(0));
      for (const b of after) if (closesIntoResult(org.accounts.get(b.subAccountId), org.country) && !net(b).isZero()) throw new Error(`${country}: income or expense left after the close`);
      const accounts = RESULT_ACCOUNTS[country];
      const resultIn = [accounts.profit, accounts.loss].map((code) => org.accountIdByCode.get(code)!);
      const moved = after.filter((b) => resultIn.includes(b.subAccountId)).reduce((s, b) => s.plus(net(b)), new Decimal(0))
        .minus(before.filter((b) => resultIn.includes(b.subAccountId)).reduce((s, b) => s.plus(net(b)), new Decimal(0)));
      if (!moved.eq(result)) throw new Error(`${country}: the result ${result} moved ${moved} into ${accounts.profit}/${accounts.loss}`);
      t.same(lineNets(openingLines(org, after)), lineNets(temporary), `${country}: the opening is what temporaryOpening said`);
      const total = temporary.reduce((s, l) => s.plus(l.debitAmount).minus(l.creditAmount), new Decimal(0));
      if (!total.isZero()) throw new Error(`${country}: the opening is unbalanced by ${total}`);
      if (country === 'ES' && Object.keys(nets(yearEndBalances(book.history))).length > 0) throw new Error('ES: the closing entry leaves balances');

      book.execute({ type: 'ReopenAccountingExercise', now: NOW });
      if (JSON.stringify(nets(yearEndBalances(book.history))) !== JSON.stringify(nets(before))) throw new Error(`${country}: reopening changed the balances`);
      if (book.ledger.closed || JSON.stringify([...book.ledger.closedPeriods].sort()) !== JSON.stringify(closedBefore)) throw new Error(`${country}: reopening left the periods otherwise`);
      return true;
    }), { numRuns: 30 });
    t.pass(`${country}: holds for 30 ledgers`);
  }
});

t.test('an account of unknown nature closes by its code\'s class in the master chart before its statement', async (t) => {
  const account = (code: string, accountType: 'UNDEFINED' | 'INCOME_STATEMENT') => ({
    id: id(), code, accountLevel: 'SUB_ACCOUNT' as const, accountType, subAccountType: 'UNDEFINED' as const, nature: null,
    deactivated: false, yearEndClosingAccountId: null, transitionalPrepaymentAccountId: null,
  });
  t.ok(closesIntoResult(account('6299999', 'UNDEFINED'), 'ES'), 'a class 6 code: an expense, closed into the result');
  t.ok(closesIntoResult(account('7059999', 'UNDEFINED'), 'ES'), 'a class 7 code: an income, closed into the result');
  t.notOk(closesIntoResult(account('5729999', 'INCOME_STATEMENT'), 'ES'), 'a class 5 code: carried forward, whatever its statement says');
  t.ok(closesIntoResult(account('ZZ99', 'INCOME_STATEMENT'), 'ES'), 'a code the chart does not classify: by its statement');
});

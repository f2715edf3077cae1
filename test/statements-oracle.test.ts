/**
 * Issue 19 item 2, against an independent double-entry tool: random balanced ledgers become an hledger journal whose
 * accounts are named by their code's prefixes (5720000 → c:5:57:572:5720:57200:572000:5720000), so hledger's tree
 * balance gives the sum of every prefix. The trial balance (`hledger bal --flat`) and every statement line, computed
 * from the line's own formula text over hledger's prefix sums (a longer prefix of another line taken out again,
 * "[D]"/"[C]" items from hledger's per-account balances of that sign), equal evaluate()'s to the cent.
 * Skips when hledger is not installed (.ci/run installs Debian's).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import t from 'tap';
import { Decimal } from '../domain/money.ts';
import { evaluate, statementModel, statementVariants, type StatementModel } from '../domain/reports/statements.ts';
import { balancesOf, entriesArbitrary, postingAccounts, type RandomEntry } from './helpers/random-ledger.ts';
import { expect, holdsAsync } from './helpers/property.ts';

const HLEDGER = ['/usr/bin/hledger', '/usr/local/bin/hledger'].find((path) => existsSync(path));
const RUNS = Number(process.env.STATEMENTS_ORACLE_RUNS ?? 15);
const MODELS: [string, string][] = [['ES', 'PYMES'], ['ES', 'NORMAL'], ['FR', 'PCG'], ['DE', 'HGB'], ['GB', 'FRS102'], ['US', 'US_GAAP']];

const accountName = (code: string) => `c:${[...code].map((_, i) => code.slice(0, i + 1)).join(':')}`;
const money = (cents: number) => new Decimal(cents).dividedBy(100).toFixed(2);

function journal(entries: readonly RandomEntry[]): string {
  return entries.map((e, i) => `2026-01-01 e${i}\n    ${accountName(e.debit)}  ${money(e.cents)}\n    ${accountName(e.credit)}  -${money(e.cents)}\n`).join('\n');
}

/** hledger's balance report as account name → amount (debit positive). */
function hledgerBalances(text: string, layout: '--flat' | '--tree'): Map<string, Decimal> {
  const csv = execFileSync(HLEDGER!, ['-f', '-', 'bal', layout, ...(layout === '--tree' ? ['--no-elide'] : []), '-O', 'csv'], { input: text, encoding: 'utf8' });
  const out = new Map<string, Decimal>();
  for (const line of csv.trim().split('\n').slice(1)) {
    const [name, amount] = line.split('","').map((s) => s.replaceAll('"', ''));
    if (name !== 'total') out.set(name!, new Decimal(amount!));
  }
  return out;
}

// ---- The oracle's reading of the formula text (its own parser, not the model's terms). ----
interface Item { prefix: string; side?: 'D' | 'C' }
function items(text: string): Item[] {
  return text.split(',').map((s) => s.trim()).filter(Boolean).flatMap((raw) => {
    const m = /^\(?(\d+)(?:\.\.(\d+))?(?:\[([DC])\])?\)?$/.exec(raw.replace(/\s+/g, ''));
    if (!m) throw new Error(`oracle cannot read ${raw}`);
    const prefixes = m[2] ? Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, k) => String(Number(m[1]) + k).padStart(m[1]!.length, '0')) : [m[1]!];
    return prefixes.map((prefix) => ({ prefix, ...(m[3] ? { side: m[3] as 'D' | 'C' } : {}) }));
  });
}
const isLineFormula = (formula: string) => /[A-Za-z]/.test(formula.replace(/\[[DC]\]/g, ''));

interface Oracle { column1: Decimal; column2: Decimal; total: Decimal }

/** The model's account prefixes as its formula text lists them, main and detail lines apart (read once per model). */
const layouts = new WeakMap<StatementModel, { all: { main: Set<string>; detail: Set<string> }; longer: (prefix: string, set: Set<string>) => string[] }>();
function layoutOf(model: StatementModel) {
  let layout = layouts.get(model);
  if (!layout) {
    const prefixesOf = (detail: boolean) => new Set(model.lines.filter((l) => !!l.detailOf === detail && l.formula && !isLineFormula(l.formula))
      .flatMap((l) => l.formula!.split('|').flatMap((part) => items(part).map((i) => i.prefix))));
    const all = { main: prefixesOf(false), detail: prefixesOf(true) };
    const known = new Map<string, string[]>();
    const longer = (prefix: string, set: Set<string>): string[] => {
      const key = `${set === all.main ? 'm' : 'd'}${prefix}`;
      if (!known.has(key)) known.set(key, [...set].filter((q) => q.length > prefix.length && q.startsWith(prefix)));
      return known.get(key)!;
    };
    layout = { all, longer };
    layouts.set(model, layout);
  }
  return layout;
}

function oracleLines(model: StatementModel, tree: Map<string, Decimal>, flat: Map<string, Decimal>): Map<string, Oracle> {
  const byPrefix = new Map<string, Decimal>([...tree].map(([name, amount]) => [name.split(':').pop()!, amount]));
  const leaves = [...flat].map(([name, amount]) => ({ code: name.split(':').pop()!, amount }));
  const { all, longer } = layoutOf(model);
  const itemValue = (item: Item, set: Set<string>): Decimal => {
    const inside = longer(item.prefix, set);
    if (item.side) {
      return leaves.filter((l) => l.code.startsWith(item.prefix) && !inside.some((q) => l.code.startsWith(q)))
        .filter((l) => (item.side === 'D' ? l.amount.gt(0) : l.amount.lt(0)))
        .reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
    }
    // hledger's sum of the prefix less the sums of the outermost longer prefixes placed elsewhere
    const outermost = inside.filter((q) => !inside.some((r) => r.length < q.length && q.startsWith(r)));
    return outermost.reduce((sum, q) => sum.minus(byPrefix.get(q) ?? 0), byPrefix.get(item.prefix) ?? new Decimal(0));
  };
  const out = new Map<string, Oracle>();
  const valueOf = (code: string): Oracle => {
    const known = out.get(code);
    if (known) return known;
    const line = model.lines.find((l) => l.code === code)!;
    const direction = line.balance === 'DEBIT' ? 1 : -1;
    let value: Oracle = { column1: new Decimal(0), column2: new Decimal(0), total: new Decimal(0) };
    if (line.formula && isLineFormula(line.formula)) {
      for (const m of line.formula.replace(/\s+/g, '').matchAll(/([+-]?)([A-Za-z][A-Za-z0-9]*)/g)) {
        const sign = m[1] === '-' ? -1 : 1;
        const v = valueOf(m[2]!);
        value = { column1: value.column1.plus(v.column1.times(sign)), column2: value.column2.plus(v.column2.times(sign)), total: value.total.plus(v.total.times(sign)) };
      }
    } else if (line.formula) {
      const set = line.detailOf ? all.detail : all.main;
      const [first, second = ''] = line.formula.split('|');
      const column1 = items(first!).reduce((sum, i) => sum.plus(itemValue(i, set)), new Decimal(0)).times(direction);
      const column2 = items(second).reduce((sum, i) => sum.plus(itemValue(i, set)), new Decimal(0)).times(model.columns === 'NET' ? -direction : direction);
      value = { column1, column2, total: model.columns === 'NET' ? column1.minus(column2) : column1.plus(column2) };
    }
    if (line.result && model.statement === 'BALANCE_SHEET') {
      const pnl = model.companion!;
      const result = oracleLines(pnl, tree, flat).get(pnl.resultLine!)!.total
        .times(pnl.lines.find((l) => l.code === pnl.resultLine)!.balance === line.balance ? 1 : -1);
      value = { ...value, column1: value.column1.plus(result), total: value.total.plus(result) };
    }
    out.set(code, value);
    return value;
  };
  for (const line of model.lines) valueOf(line.code);
  return out;
}

t.test('statements equal hledger\'s sums of the same random ledgers, to the cent', { skip: HLEDGER ? false : 'hledger is not installed (apt-get install hledger): skipping the oracle test' }, async (t) => {
  t.ok(statementVariants('ES').includes('NORMAL'));
  for (const [country, variant] of MODELS) {
    const bs = statementModel(country, 'BALANCE_SHEET', variant);
    const pnl = statementModel(country, 'PROFIT_AND_LOSS', variant);
    await holdsAsync(t, fc.asyncProperty(entriesArbitrary(postingAccounts(country, bs), 30), async (entries) => {
      const text = journal(entries);
      const flat = hledgerBalances(text, '--flat');
      const tree = hledgerBalances(text, '--tree');
      const balances = balancesOf(entries);
      // the trial balance: hledger's per-account balance is ours (debit − credit)
      for (const [code, b] of balances) {
        const theirs = flat.get(accountName(code)) ?? new Decimal(0);
        expect(theirs.equals(b.debit.minus(b.credit)), `${code}: hledger ${theirs} ≠ ours ${b.debit.minus(b.credit)}`);
      }
      for (const model of [bs, pnl]) {
        const oracle = oracleLines(model, tree, flat);
        for (const row of evaluate(model, balances)) {
          const o = oracle.get(row.code)!;
          expect(row.amountTotal.equals(o.total), `${model.key} ${row.code} ${row.description}: ours ${row.amountTotal} ≠ hledger's ${o.total}`);
          if (row.multiColumn) {
            expect(row.amountColumn1.equals(o.column1) && row.amountColumn2.equals(o.column2),
              `${model.key} ${row.code}: columns ${row.amountColumn1} | ${row.amountColumn2} ≠ hledger's ${o.column1} | ${o.column2}`);
          }
        }
      }
    }), { numRuns: RUNS });
  }
});

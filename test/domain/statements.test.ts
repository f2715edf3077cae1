/**
 * Issue 19 item 2, the statement models (pure): every posting account of every master chart falls on a line of its
 * country's models (Sage 200's "Cuentas fuera de guía" check) or is listed off-statement; every balanced ledger
 * gives a balance sheet whose assets equal its equity and liabilities (the year's result, from the P&L, included);
 * accounts split by sign move to their alternative line; the French bilan's Brut | Amortissements | Net columns;
 * the indicators' prefixes give what their lines give.
 */
import fc from 'fast-check';
import t from 'tap';
import { Decimal } from '../../domain/money.ts';
import { OrganisationCountry } from '../../domain/enums.ts';
import { BalanceGuideLineType } from '../../domain/reports/enums.ts';
import {
  evaluate, indicatorAccounts, indicatorValue, positions, statementModel, statementVariants, unmapped, type AccountBalance, type IndicatorTerm, type StatementRow,
} from '../../domain/reports/statements.ts';
import { STATEMENTS_BY_COUNTRY } from '../../domain/reference/statements/index.ts';
import { balancesOf, chartOf, entriesArbitrary, postingAccounts } from '../helpers/random-ledger.ts';
import { expect, holds } from '../helpers/property.ts';

const d = (value: string | number) => new Decimal(value);
const balance = (debit: string | number, credit: string | number): AccountBalance => ({ debit: d(debit), credit: d(credit) });
const row = (rows: StatementRow[], code: string): StatementRow => {
  const found = rows.find((r) => r.code === code);
  if (!found) throw new Error(`no line ${code}`);
  return found;
};
const modelled = OrganisationCountry.filter((c) => STATEMENTS_BY_COUNTRY[c]);
/** One country per set of models (IE shares GB's, CA shares US's): the properties need not run twice. */
const distinct = modelled.filter((c, i) => modelled.findIndex((o) => STATEMENTS_BY_COUNTRY[o] === STATEMENTS_BY_COUNTRY[c]) === i);

t.test('every organisation country has statement models', async (t) => {
  t.same(OrganisationCountry.filter((c) => !STATEMENTS_BY_COUNTRY[c]), []);
  t.same(statementVariants('ES'), ['PYMES', 'ABREVIADO', 'NORMAL']);
  t.throws(() => statementModel('ES', 'BALANCE_SHEET', 'SIMPLIFICADO'), /unknown statement model 'SIMPLIFICADO'/);
  t.equal(statementModel('ES', 'PROFIT_AND_LOSS').variant, 'PYMES', 'ES defaults to PYMES');
});

t.test('every posting account of the master charts falls on a line or is off-statement (no "cuentas fuera de guía")', async (t) => {
  for (const country of modelled) {
    const codes = chartOf(country).lines.filter((l) => l.accountLevel === 'SUB_ACCOUNT').map((l) => l.code);
    for (const variant of statementVariants(country)) {
      for (const statement of ['BALANCE_SHEET', 'PROFIT_AND_LOSS'] as const) {
        t.same(unmapped(statementModel(country, statement, variant), codes), [], `${country} ${variant} ${statement}`);
      }
    }
  }
  t.same(unmapped(statementModel('ES', 'BALANCE_SHEET'), ['4080000', '4000000']), ['4080000'], 'an account outside the guide is listed');
  t.same(unmapped(statementModel('FR', 'PROFIT_AND_LOSS'), ['801000', '411000', '999999']), [], 'class 8/9 are off-statement in FR');
});

t.test('lines have Sage\'s shape: codes of at most 10 characters, known line types, their legal formula', async (t) => {
  for (const country of modelled) {
    for (const variant of statementVariants(country)) {
      for (const statement of ['BALANCE_SHEET', 'PROFIT_AND_LOSS'] as const) {
        const model = statementModel(country, statement, variant);
        const bad = model.lines.filter((l) => l.code.length > 10 || !BalanceGuideLineType.includes(l.lineType)
          || (l.lineType.endsWith('_CALCULATION') ? !l.formula && !l.result : !!l.formula));
        t.same(bad.map((l) => l.code), [], `${model.key}`);
        t.same(model.lines.map((l) => l.order), model.lines.map((_, i) => i + 1), `${model.key} orders`);
      }
    }
  }
  const bilan = statementModel('FR', 'BALANCE_SHEET');
  t.same(bilan.lines.filter((l) => l.description.startsWith('TOTAL GÉNÉRAL')).map((l) => l.code), ['A9', 'B9']);
  t.equal(bilan.lines.find((l) => l.result)?.description, "Résultat de l'exercice (bénéfice ou perte)");
  t.equal(statementModel('ES', 'BALANCE_SHEET').lines.find((l) => l.code === 'AA1')?.formula, '20, (280), (290)');
  const normal = statementModel('ES', 'BALANCE_SHEET', 'NORMAL');
  t.same(normal.lines.find((l) => l.code === 'AA1')?.lines?.map((l) => l.code), ['AA11', 'AA12', 'AA13', 'AA14', 'AA15', 'AA16', 'AA17'], 'the normal model itemises what the others sum');
  t.equal(statementModel('ES', 'PROFIT_AND_LOSS', 'NORMAL').lines.find((l) => l.code === 'R01B')?.formula, '705');
  t.notOk(statementModel('ES', 'PROFIT_AND_LOSS', 'PYMES').lines.some((l) => l.code === 'R01B'));
  t.same(statementModel('ES', 'BALANCE_SHEET', 'ABREVIADO').lines.filter((l) => l.code.startsWith('PA') && l.code.length === 3).map((l) => l.description),
    ['A-1) Fondos propios.', 'A-2) Ajustes por cambios de valor.', 'A-3) Subvenciones, donaciones y legados recibidos.']);
});

t.test('random balanced ledgers: assets = equity and liabilities, the P&L\'s result included, for every model', async (t) => {
  for (const country of distinct) {
    for (const variant of statementVariants(country)) {
      const bs = statementModel(country, 'BALANCE_SHEET', variant);
      const pnl = statementModel(country, 'PROFIT_AND_LOSS', variant);
      const resultLine = bs.lines.find((l) => l.result)!;
      holds(t, fc.property(entriesArbitrary(postingAccounts(country, bs)), (entries) => {
        const balances = balancesOf(entries);
        const rows = evaluate(bs, balances);
        const assets = row(rows, bs.totals!.assets).amountTotal;
        const equityAndLiabilities = row(rows, bs.totals!.equityAndLiabilities).amountTotal;
        expect(assets.equals(equityAndLiabilities), `${bs.key}: assets ${assets} ≠ equity and liabilities ${equityAndLiabilities}`);
        // The result line is its own accounts (none posted here but 129/12) plus the P&L's result.
        const result = row(evaluate(pnl, balances), pnl.resultLine!).amountTotal;
        const own = [...balances].filter(([code]) => resultLine.accounts!.some((a) => code.startsWith(a.prefix)))
          .reduce((sum, [, b]) => sum.plus(b.credit.minus(b.debit)), d(0));
        expect(row(rows, resultLine.code).amountTotal.equals(result.plus(own)), `${bs.key}: result line ≠ P&L result`);
      }));
    }
  }
});

t.test('an account whose balance has the other sign moves to its alternative line', async (t) => {
  const es = statementModel('ES', 'BALANCE_SHEET');
  const bank = positions(es, '5720000');
  t.equal(bank.main?.code, 'AB7');
  t.equal(bank.alternativeIfNegative?.code, 'PC21', 'an overdrawn bank is a debt with credit institutions');
  t.same(positions(es, '4300000'), { main: es.lines.find((l) => l.code === 'AB31') }, 'no alternative for customers');
  const overdrawn = evaluate(es, new Map([['5720000', balance(0, 250)], ['5700000', balance(100, 0)], ['6260000', balance(150, 0)]]));
  t.equal(row(overdrawn, 'AB7').amountTotal.toString(), '100', 'cash stays in assets');
  t.equal(row(overdrawn, 'PC21').amountTotal.toString(), '250', 'the overdraft is a liability');
  t.equal(row(overdrawn, 'PA17').amountTotal.toString(), '-150', 'the loss is the year\'s result');
  const inCredit = evaluate(es, new Map([['5720000', balance(250, 0)], ['1000000', balance(0, 250)]]));
  t.equal(row(inCredit, 'AB7').amountTotal.toString(), '250');
  t.equal(row(inCredit, 'PC21').amountTotal.toString(), '0');

  const fr = statementModel('FR', 'BALANCE_SHEET');
  t.equal(positions(fr, '512000').alternativeIfNegative?.code, 'B402');
  t.equal(positions(fr, '444000').main?.code, 'B406', 'État - Impôts sur les bénéfices, a liability, is a tax debt');
  t.equal(positions(fr, '444000').alternativeIfNegative?.code, 'A20202', '... and another receivable when in debit');
  const frRows = evaluate(fr, new Map([['512000', balance(0, 80)], ['101300', balance(0, 20)], ['411000', balance(100, 0)]]));
  t.equal(row(frRows, 'B402').amountTotal.toString(), '80');
  t.equal(row(frRows, 'A204').amountTotal.toString(), '0');

  const de = statementModel('DE', 'BALANCE_SHEET');
  t.same([positions(de, '1600').main?.code, positions(de, '1600').alternativeIfNegative?.code], ['PC4', 'AB24'], 'debitorische Kreditoren: sonstige Vermögensgegenstände');
  t.same([positions(de, '1200').main?.code, positions(de, '1200').alternativeIfNegative?.code], ['AB4', 'PC2']);
  const gb = statementModel('IE', 'BALANCE_SHEET');
  t.same([positions(gb, '1200').main?.code, positions(gb, '1200').alternativeIfNegative?.code], ['C4', 'E'], 'an overdraft is a creditor due within one year');
  const us = statementModel('CA', 'BALANCE_SHEET');
  t.same([positions(us, '1010').main?.code, positions(us, '1010').alternativeIfNegative?.code], ['AC1', 'LC7']);
  const usRows = evaluate(us, new Map([['1010', balance(0, 40)], ['6900', balance(40, 0)]]));
  t.equal(row(usRows, 'LC7').amountTotal.toString(), '40');
  t.equal(row(usRows, 'E4').amountTotal.toString(), '-40', 'the net loss is in equity');
  t.equal(row(usRows, 'LET').amountTotal.toString(), '0');
});

t.test('the French bilan actif: Brut | Amortissements et dépréciations | Net', async (t) => {
  const fr = statementModel('FR', 'BALANCE_SHEET');
  const rows = evaluate(fr, new Map([
    ['213000', balance(1000, 0)], ['281300', balance(0, 300)], ['205000', balance(500, 0)], ['280500', balance(0, 100)],
    ['101300', balance(0, 1100)],
  ]));
  const constructions = row(rows, 'A10102');
  t.ok(constructions.multiColumn);
  t.same([constructions.amountColumn1, constructions.amountColumn2, constructions.amountTotal].map(String), ['1000', '300', '700']);
  t.same([row(rows, 'A199').amountColumn1, row(rows, 'A199').amountColumn2, row(rows, 'A199').amountTotal].map(String), ['1500', '400', '1100']);
  t.equal(row(rows, 'A9').amountTotal.toString(), '1100');
  t.equal(row(rows, 'B9').amountTotal.toString(), '1100');
  const capital = row(rows, 'B100');
  t.notOk(capital.multiColumn);
  t.same([capital.amountColumn1, capital.amountColumn2, capital.amountTotal].map(String), ['0', '0', '1100'], 'one-column lines have only a total');

  const cr = evaluate(statementModel('FR', 'PROFIT_AND_LOSS'), new Map([
    ['707000', balance(0, 700)], ['707300', balance(0, 300)], ['607000', balance(400, 0)], ['612200', balance(50, 0)],
    ['512000', balance(350, 1000)],
  ]));
  t.same([row(cr, 'P00101').amountColumn1, row(cr, 'P00101').amountColumn2, row(cr, 'P00101').amountTotal].map(String), ['700', '300', '1000'], 'France | Exportations | Total');
  t.equal(row(cr, 'C00203').amountTotal.toString(), '50');
  t.equal(row(cr, 'C0020301').amountTotal.toString(), '50', 'the detail line (crédit-bail mobilier) repeats what its main line holds');
  t.equal(row(cr, 'R1').amountTotal.toString(), '550');
  t.equal(row(cr, 'R5').amountTotal.toString(), '550');
});

t.test('indicator prefixes sum to what the indicator\'s lines give', async (t) => {
  // The terms' meaning, written out here: an account under the prefix, of the term's side if it has one.
  const sumOf = (terms: readonly IndicatorTerm[], balances: Map<string, AccountBalance>) =>
    terms.reduce((sum, term) => [...balances].filter(([code, b]) => code.startsWith(term.prefix)
      && (term.side === 'DEBIT' ? b.debit.gt(b.credit) : term.side === 'CREDIT' ? b.credit.gt(b.debit) : true))
      .reduce((s, [, b]) => s.plus(b.debit.minus(b.credit).times(term.sign)), sum), d(0));
  // [country, indicator, line, factor]: the indicator is factor × the line (−1 where the ES P&L shows a cost negative)
  const checks: [string, string, string, 1 | -1][] = [
    ['ES', 'TURNOVER', 'R01', 1], ['ES', 'STAFF_COST', 'R06', -1], ['ES', 'RESULT', 'RA', 1], ['ES', 'NET_RESULT', 'RD', 1],
    ['FR', 'TURNOVER', 'P001', 1], ['FR', 'NET_RESULT', 'R5', 1], ['FR', 'OTHER_EXPENSES', 'C00203', 1], ['FR', 'EXCEPTIONAL_RESULT', 'R4', 1],
  ];
  for (const [country, type, code, factor] of checks) {
    const pnl = statementModel(country, 'PROFIT_AND_LOSS');
    const terms = indicatorAccounts(country)[type]!;
    holds(t, fc.property(entriesArbitrary(postingAccounts(country, pnl)), (entries) => {
      const balances = balancesOf(entries);
      const line = row(evaluate(pnl, balances), code).amountTotal.times(factor);
      const viaPrefixes = sumOf(terms, balances);
      expect(line.equals(viaPrefixes), `${country} ${type}: line ${line} ≠ prefixes ${viaPrefixes}`);
    }));
  }
  // Every indicator defined by lines: its (sided) prefixes give what indicatorValue() reads off the lines, on ledgers
  // of every posting account, so banks, customers and suppliers end up on either side (overdrafts included).
  for (const country of distinct) {
    const bs = statementModel(country, 'BALANCE_SHEET');
    const accounts = postingAccounts(country, bs);
    const split = accounts.filter((code) => positions(bs, code).alternativeIfNegative);
    for (const [type, spec] of Object.entries(STATEMENTS_BY_COUNTRY[country]!.indicatorSpecs)) {
      if (!spec || !('lines' in spec)) continue;
      const terms = indicatorAccounts(country)[type]!;
      // half the entries credit an account that moves by sign, so overdrawn banks are common, not luck
      const overdraft = fc.record({ debit: fc.constantFrom(...accounts), credit: fc.constantFrom(...(split.length ? split : accounts)), cents: fc.integer({ min: 1, max: 100_000_000 }) });
      holds(t, fc.property(entriesArbitrary(accounts, 20), fc.array(overdraft, { maxLength: 10 }), (entries, overdrafts) => {
        const balances = balancesOf([...entries, ...overdrafts]);
        const byLines = indicatorValue(country, type, balances)!;
        const viaPrefixes = sumOf(terms, balances);
        expect(byLines.equals(viaPrefixes), `${country} ${type}: lines ${byLines} ≠ prefixes ${viaPrefixes}`);
      }));
    }
  }

  // indicatorValue: the lines themselves, so an overdrawn bank leaves the treasury and the assets
  const overdrawn = new Map([['5720000', balance(0, 300)], ['5700000', balance(100, 0)], ['4300000', balance(200, 0)]]);
  t.equal(indicatorValue('ES', 'TREASURY_BALANCE', overdrawn)?.toString(), '-200', 'cash 100 less the overdraft 300');
  t.equal(indicatorValue('ES', 'ASSETS', overdrawn)?.toString(), '300');
  t.equal(sumOf(indicatorAccounts('ES').ASSETS!, overdrawn).toString(), '300', 'the prefixes leave the overdraft out too');
  t.ok(indicatorAccounts('ES').ASSETS!.some((p) => p.prefix === '572' && p.side === 'DEBIT'), 'a bank counts in the assets when in debit');
  t.equal(indicatorValue('ES', 'WORKING_CAPITAL', overdrawn)?.toString(), '0', 'current assets 300 less the overdraft 300');
  t.equal(indicatorValue('ES', 'EXCEPTIONAL_RESULT', overdrawn), undefined, 'Spain has no exceptional result since the PGC 2007');
  const sales = new Map([['707300', balance(0, 500)], ['607000', balance(200, 0)], ['512000', balance(300, 0)]]);
  t.equal(indicatorValue('FR', 'TRADE_MARGIN', sales)?.toString(), '300');
  t.equal(indicatorValue('FR', 'NET_RESULT', sales)?.toString(), '300');
  t.equal(indicatorValue('GB', 'PURCHASES', new Map([['5000', balance(80, 0)], ['2100', balance(0, 80)]]))?.toString(), '80');

  const es = indicatorAccounts('ES');
  t.same(es.TURNOVER, [{ prefix: '700', sign: -1 }, { prefix: '701', sign: -1 }, { prefix: '702', sign: -1 }, { prefix: '703', sign: -1 },
    { prefix: '704', sign: -1 }, { prefix: '705', sign: -1 }, { prefix: '706', sign: -1 }, { prefix: '708', sign: -1 }, { prefix: '709', sign: -1 }]);
  t.ok(indicatorAccounts('FR').ASSETS!.some((p) => p.prefix === '509' && p.sign === -1), 'FR "50 (sauf 509)": 509 taken out again');
});

/**
 * Issue 19, reference statements worked by hand (the accountant's review): one small year per country, booked in its
 * own accounts, with every non-zero line of its balance sheet and P&L written out as a literal and the working in
 * comments. These check where the models place the accounts, which the hledger oracle (it reads the same formula
 * text the models are built from) cannot. The same year in each: capital 10 000; a machine 6 000 less 1 000
 * depreciation; goods in stock 2 000; customers 3 000 less a 200 bad-debt allowance; bank 4 400; suppliers 2 500;
 * short-term bank credit 800; sales 9 000, purchases 4 000, wages 2 500, depreciation 1 000, the allowance 200,
 * interest 100, tax on profit 300.
 * Operating result 9 000 − 4 000 − 2 500 − 1 000 − 200 = 1 300; less interest 100 = 1 200; less tax 300 = 900.
 * Assets 5 000 + 2 000 + 2 800 + 4 400 = 14 200 = capital 10 000 + result 900 + debts 2 500 + 800.
 */
import t from 'tap';
import { Decimal } from '../../domain/money.ts';
import { evaluate, statementModel, type AccountBalance, type StatementRow } from '../../domain/reports/statements.ts';

const d = (value: number) => new Decimal(value);
const dr = (amount: number): AccountBalance => ({ debit: d(amount), credit: d(0) });
const cr = (amount: number): AccountBalance => ({ debit: d(0), credit: d(amount) });
/** Every line with a non-zero amount, code → total (and its columns when they are not just the total). */
const nonZero = (rows: StatementRow[]) => Object.fromEntries(rows.filter((r) => !r.amountTotal.isZero()).map((r) => [r.code, r.amountTotal.toString()]));
const columns = (rows: StatementRow[], code: string) => {
  const r = rows.find((x) => x.code === code)!;
  return [r.amountColumn1, r.amountColumn2, r.amountTotal].map(String);
};

t.test('ES PYMES: the year worked by hand', async (t) => {
  const balances = new Map([
    ['1000000', cr(10000)], ['2130000', dr(6000)], ['2813000', cr(1000)], ['3000000', dr(2000)], ['4300000', dr(3000)],
    ['4900000', cr(200)], ['5720000', dr(4400)], ['4000000', cr(2500)], ['5200000', cr(800)], ['7000000', cr(9000)],
    ['6000000', dr(4000)], ['6400000', dr(2500)], ['6810000', dr(1000)], ['6940000', dr(200)], ['6620000', dr(100)], ['6300000', dr(300)],
  ]);
  // Activo: II. Inmovilizado material 6 000 − 1 000 (2813); Existencias 2 000; Clientes 3 000 − 200 (490); Efectivo 4 400.
  // Patrimonio neto: Capital escriturado 10 000, Resultado 900 (the P&L's); Pasivo corriente: 520 800, 400 2 500.
  t.same(nonZero(evaluate(statementModel('ES', 'BALANCE_SHEET', 'PYMES'), balances)), {
    AA: '5000', AA2: '5000', AB: '9200', AB2: '2000', AB3: '2800', AB31: '2800', AB7: '4400', AT: '14200',
    PA: '10900', PA1: '10900', PA11: '10000', PA111: '10000', PA17: '900',
    PC: '3300', PC2: '800', PC21: '800', PC4: '2500', PC41: '2500', PT: '14200',
  });
  // P&L, every line read credit − debit: 1. 9 000; 4. Aprovisionamientos −4 000; 6. Personal −2 500; 7. Otros gastos
  // de explotación −200 (694); 8. Amortización −1 000; A) 1 300; 14. Gastos financieros −100; B) −100; C) 1 200;
  // 18. Impuestos −300; D) 900.
  t.same(nonZero(evaluate(statementModel('ES', 'PROFIT_AND_LOSS', 'PYMES'), balances)), {
    R01: '9000', R04: '-4000', R06: '-2500', R07: '-200', R08: '-1000', RA: '1300', R14: '-100', RB: '-100', RC: '1200', R18: '-300', RD: '900',
  });
});

t.test('FR PCG: the year worked by hand', async (t) => {
  const balances = new Map([
    ['101300', cr(10000)], ['215400', dr(6000)], ['281540', cr(1000)], ['370000', dr(2000)], ['411000', dr(3000)],
    ['491000', cr(200)], ['512000', dr(4400)], ['401000', cr(2500)], ['519000', cr(800)], ['707000', cr(9000)],
    ['607000', dr(4000)], ['641000', dr(2500)], ['681100', dr(1000)], ['681700', dr(200)], ['661100', dr(100)], ['695000', dr(300)],
  ]);
  const bilan = evaluate(statementModel('FR', 'BALANCE_SHEET'), balances);
  // Actif Brut | Amortissements | Net: installations 6 000 | 1 000 | 5 000; marchandises 2 000; clients 3 000 | 200 | 2 800;
  // disponibilités 4 400; actif circulant 9 400 | 200 | 9 200; total 15 400 | 1 200 | 14 200.
  // Passif: capital 10 000, résultat 900; B402 the concours bancaires 800 (its "dont" line too); fournisseurs 2 500.
  t.same(nonZero(bilan), {
    A101: '5000', A10103: '5000', A199: '5000', A200: '2000', A20005: '2000', A202: '2800', A20201: '2800', A204: '4400', A299: '9200', A9: '14200',
    B100: '10000', B105: '900', B199: '10900', B402: '800', B40201: '800', B405: '2500', B499: '3300', B9: '14200',
  });
  t.same(columns(bilan, 'A10103'), ['6000', '1000', '5000']);
  t.same(columns(bilan, 'A9'), ['15400', '1200', '14200']);
  // Compte de résultat, produits and charges each positive: ventes de marchandises 9 000; achats 4 000, salaires 2 500,
  // dotations aux amortissements 1 000 and aux dépréciations de l'actif circulant 200 (charges 7 700); R1 1 300;
  // intérêts 100 (R2 −100); R3 1 200; impôt sur les bénéfices 300; total des charges 8 100; bénéfice 9 000 − 8 100 = 900.
  t.same(nonZero(evaluate(statementModel('FR', 'PROFIT_AND_LOSS'), balances)), {
    P00101: '9000', P001: '9000', P099: '9000', C00201: '4000', C00207: '2500', C00209: '1000', C00211: '200', C099: '7700', R1: '1300',
    C602: '100', C699: '100', R2: '-100', R3: '1200', C901: '300', P999: '9000', C999: '8100', R5: '900',
  });
});

t.test('DE HGB (SKR 03): the year worked by hand', async (t) => {
  const balances = new Map([
    // SKR 03 writes depreciation off the asset itself: 0210 Maschinen 6 000 Dr and 1 000 Cr.
    ['0800', cr(10000)], ['0210', { debit: d(6000), credit: d(1000) }], ['3980', dr(2000)], ['1400', dr(3000)],
    ['0998', cr(200)], ['1200', dr(4400)], ['1600', cr(2500)], ['1210', cr(800)], ['8400', cr(9000)],
    ['3400', dr(4000)], ['4120', dr(2500)], ['4830', dr(1000)], ['2450', dr(200)], ['2110', dr(100)], ['2200', dr(300)],
  ]);
  // Aktiva: Maschinen 5 000; Vorräte 2 000; Forderungen 3 000 − EWB 200; Bank 4 400. Passiva: Gezeichnetes Kapital
  // 10 000, Jahresüberschuss 900; the overdrawn 1210 a bank debt due within a year (PC2 and its davon) 800; Lieferanten 2 500.
  t.same(nonZero(evaluate(statementModel('DE', 'BALANCE_SHEET'), balances)), {
    AA: '5000', AA2: '5000', AA22: '5000', AB: '9200', AB1: '2000', AB2: '2800', AB21: '2800', AB4: '4400', AT: '14200',
    PA: '10900', PA1: '10000', PA5: '900', PC: '3300', PC2: '800', PC21: '800', PC4: '2500', PT: '14200',
  });
  // GuV read Erträge − Aufwendungen: Umsatzerlöse 9 000; Wareneingang −4 000; Gehälter −2 500; Abschreibungen −1 000;
  // Einstellung in die EWB −200 (sonstige betriebliche Aufwendungen); Zinsen −100; Körperschaftsteuer −300; 900.
  t.same(nonZero(evaluate(statementModel('DE', 'PROFIT_AND_LOSS'), balances)), {
    G01: '9000', G05: '-4000', G05A: '-4000', G06: '-2500', G06A: '-2500', G07: '-1000', G08: '-200', G13: '-100', G14: '-300', G15: '900', G17: '900',
  });
});

/**
 * Issue 19, the accountant's review of the KPIs: each indicator means the same in every country (written at the top
 * of domain/reports/indicators.ts). The same economic ledger, booked in each country's accounts, gives the same
 * figures; every expected amount below is worked by hand in the comments, and each figure is read both through
 * indicatorValue() and through the indicator's account terms (indicatorAccounts), which must agree.
 */
import t, { type Test } from 'tap';
import { Decimal } from '../../domain/money.ts';
import { indicatorAccounts, indicatorValue, type AccountBalance } from '../../domain/reports/statements.ts';
import { sumTerms } from '../../domain/reports/indicators.ts';

const d = (value: number) => new Decimal(value);
const dr = (amount: number): AccountBalance => ({ debit: d(amount), credit: d(0) });
const cr = (amount: number): AccountBalance => ({ debit: d(0), credit: d(amount) });

/** The indicator by its lines and by its terms; fails the test when the two disagree. */
function kpi(t: Test, country: string, type: string, balances: Map<string, AccountBalance>): string | undefined {
  const byLines = indicatorValue(country, type, balances);
  const terms = indicatorAccounts(country)[type];
  t.equal(terms ? sumTerms(terms, balances).toString() : undefined, byLines?.toString(), `${country} ${type}: terms = lines`);
  return byLines?.toString();
}

// Cash at bank 1000 (debit), a second bank overdrawn or short-term bank credit 400, a long-term bank loan 600.
// Current assets 1000, current liabilities 400: WORKING_CAPITAL 600; TREASURY_BALANCE 1000 − 400 = 600.
const BANKS: Record<string, Map<string, AccountBalance>> = {
  ES: new Map([['5720000', dr(1000)], ['5200000', cr(400)], ['1700000', cr(600)]]),
  FR: new Map([['512000', dr(1000)], ['519000', cr(400)], ['164000', cr(600)]]),
  DE: new Map([['1200', dr(1000)], ['1210', cr(400)], ['0650', cr(600)]]),
  GB: new Map([['1200', dr(1000)], ['1210', cr(400)], ['2300', cr(600)]]),
  US: new Map([['1010', dr(1000)], ['1020', cr(400)], ['2700', cr(600)]]),
};

t.test('WORKING_CAPITAL and TREASURY_BALANCE: overdrafts and short-term bank credit are current liabilities everywhere', async (t) => {
  for (const [country, balances] of Object.entries(BANKS)) {
    t.equal(kpi(t, country, 'TREASURY_BALANCE', balances), '600', `${country} treasury`);
    t.equal(kpi(t, country, 'WORKING_CAPITAL', balances), '600', `${country} working capital`);
  }
  // The same with the overdraft on an account that is an asset when in debit: ES 5730000, DE 1100.
  t.equal(kpi(t, 'ES', 'TREASURY_BALANCE', new Map([['5720000', dr(1000)], ['5730000', cr(400)], ['1700000', cr(600)]])), '600');
  t.equal(kpi(t, 'DE', 'WORKING_CAPITAL', new Map([['1000', dr(1000)], ['1100', cr(400)], ['0650', cr(600)]])), '600');
});

t.test('TAXES is the tax on profit: not other taxes', async (t) => {
  // tax on profit 100, other taxes 50 (a local tax, a property tax) → 100
  t.equal(kpi(t, 'ES', 'TAXES', new Map([['6300000', dr(100)], ['6310000', dr(50)], ['5720000', cr(150)]])), '100');
  t.equal(kpi(t, 'FR', 'TAXES', new Map([['695000', dr(100)], ['635100', dr(50)], ['512000', cr(150)]])), '100');
  t.equal(kpi(t, 'DE', 'TAXES', new Map([['2200', dr(100)], ['4340', dr(50)], ['1200', cr(150)]])), '100');
  t.equal(kpi(t, 'US', 'TAXES', new Map([['9000', dr(100)], ['6900', dr(50)], ['1010', cr(150)]])), '100');
  t.equal(kpi(t, 'GB', 'TAXES', new Map([['2320', cr(100)], ['1200', dr(100)]])), undefined, 'GB: no tax expense account in its chart');
});

t.test('PURCHASES: goods and materials with their stock variation, net of returns; not subcontracted work', async (t) => {
  // goods 1000 + stock decrease 200 − returns 100 = 1100; the subcontracted work (300) is not a purchase
  t.equal(kpi(t, 'ES', 'PURCHASES', new Map([['6000000', dr(1000)], ['6100000', dr(200)], ['6080000', cr(100)], ['6070000', dr(300)], ['5720000', cr(1400)]])), '1100');
  t.equal(kpi(t, 'FR', 'PURCHASES', new Map([['607000', dr(1000)], ['603700', dr(200)], ['609700', cr(100)], ['604000', dr(300)], ['512000', cr(1400)]])), '1100');
  t.equal(kpi(t, 'DE', 'PURCHASES', new Map([['3400', dr(1000)], ['3960', dr(200)], ['3700', cr(100)], ['3100', dr(300)], ['1200', cr(1400)]])), '1100');
  // materials 1000 and raw materials 200 → 1200 (FR 601 and 6031 are materials and their variation)
  t.equal(kpi(t, 'FR', 'PURCHASES', new Map([['601000', dr(1000)], ['603100', dr(200)], ['512000', cr(1200)]])), '1200');
});

t.test('US FINANCIAL_RESULT is interest income − interest expense only', async (t) => {
  // interest income 50 − interest expense 20 = 30; a gain on an asset sale (7100) and other expenses (8100) are not in it
  t.equal(kpi(t, 'US', 'FINANCIAL_RESULT', new Map([['7000', cr(50)], ['8000', dr(20)], ['7100', cr(500)], ['8100', dr(30)], ['1010', dr(500)]])), '30');
});

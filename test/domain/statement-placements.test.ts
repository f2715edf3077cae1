/**
 * Issue 19, the accountant's review of the statement models: accounts the review found on the wrong line, each checked
 * on a small ledger whose statement was worked out by hand (the expected amounts are literals, not read from the
 * models' formula text).
 */
import t from 'tap';
import { Decimal } from '../../domain/money.ts';
import { evaluate, positions, statementModel, type AccountBalance, type StatementRow } from '../../domain/reports/statements.ts';

const d = (value: string | number) => new Decimal(value);
const dr = (amount: number): AccountBalance => ({ debit: d(amount), credit: d(0) });
const cr = (amount: number): AccountBalance => ({ debit: d(0), credit: d(amount) });
/** The rows' totals by code, as strings, for the codes asked. */
function totals(rows: StatementRow[], codes: readonly string[]): Record<string, string> {
  return Object.fromEntries(codes.map((code) => {
    const found = rows.find((r) => r.code === code);
    if (!found) throw new Error(`no line ${code}`);
    return [code, found.amountTotal.toString()];
  }));
}
const lineOf = (country: string, statement: 'BALANCE_SHEET' | 'PROFIT_AND_LOSS', code: string, variant?: string) =>
  positions(statementModel(country, statement, variant), code).main?.code;

t.test('DE: Wertberichtigungen zu Forderungen (0996..0999) reduce the Forderungen aus L+L', async (t) => {
  // 1400 Forderungen 1000 Dr; 0996 Pauschalwertberichtigung 100 Cr; 0800 Gezeichnetes Kapital 900 Cr.
  // AB21 = 1000 − 100 = 900; Aktiva 900; PD (Rechnungsabgrenzung) untouched; Passiva = Kapital 900.
  const rows = evaluate(statementModel('DE', 'BALANCE_SHEET'), new Map([['1400', dr(1000)], ['0996', cr(100)], ['0800', cr(900)]]));
  t.same(totals(rows, ['AB21', 'AT', 'PD', 'PT']), { AB21: '900', AT: '900', PD: '0', PT: '900' });
  for (const code of ['0996', '0997', '0998', '0999']) t.equal(lineOf('DE', 'BALANCE_SHEET', code), 'AB21', code);
});

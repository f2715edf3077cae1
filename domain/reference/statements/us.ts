/**
 * United States (and Canada, a stated simplification: Canadian ASPE/IFRS statements are laid out alike, and the
 * master chart is shared): a US GAAP classified balance sheet and a multi-step income statement, on the chart's
 * 4-digit ranges. Bank accounts in credit (1010..1099) are short-term borrowings; dividends declared (3800) reduce
 * retained earnings.
 */
import type { ModelRow, StatementsSpec } from '../../reports/statement-model.ts';

const BALANCE_SHEET: readonly ModelRow[] = [
  ['A', 'ASSETS'],
  { balance: 'DEBIT' },
  ['AC', 'Total current assets', 'AC1 + AC2 + AC3 + AC4'],
  ['AC1', 'Cash and cash equivalents', '1000..1009, 1010..1099[D]'],
  ['AC2', 'Accounts receivable, net', '1200..1299'],
  ['AC3', 'Inventory', '1400..1499'],
  ['AC4', 'Prepaid expenses and other current assets', '1100..1199, 1300..1399'],
  ['AN', 'Total non-current assets', 'AN1 + AN2 + AN3'],
  ['AN1', 'Property, plant and equipment, net', '1500..1699'],
  ['AN2', 'Intangible assets, net', '1700..1799'],
  ['AN3', 'Other assets', '1800..1999'],
  ['AT', 'TOTAL ASSETS', 'AC + AN'],
  ['L', "LIABILITIES AND STOCKHOLDERS' EQUITY"],
  { balance: 'CREDIT' },
  ['LC', 'Total current liabilities', 'LC1 + LC2 + LC3 + LC4 + LC5 + LC6 + LC7'],
  ['LC1', 'Accounts payable', '2000..2099'],
  ['LC2', 'Accrued liabilities', '2100..2199'],
  ['LC3', 'Sales taxes payable', '2200..2299'],
  ['LC4', 'Payroll liabilities', '2300..2399'],
  ['LC5', 'Unearned revenue', '2400..2499'],
  ['LC6', 'Income taxes payable', '2500..2599'],
  ['LC7', 'Short-term borrowings and bank overdrafts', '2600..2699, 1010..1099[C]'],
  ['LN', 'Long-term debt', '2700..2999'],
  ['LT', 'Total liabilities', 'LC + LN'],
  ['E', "Total stockholders' equity", 'E1 + E2 + E3 + E4'],
  ['E1', 'Common stock', '3000..3099'],
  ['E2', 'Additional paid-in capital', '3100..3199'],
  ['E3', 'Retained earnings', '3200..3999'],
  ['E4', 'Net income (loss) for the year', undefined, { result: true }],
  ['LET', "TOTAL LIABILITIES AND STOCKHOLDERS' EQUITY", 'LT + E'],
];

const INCOME_STATEMENT: readonly ModelRow[] = [
  { balance: 'CREDIT' },
  ['R1', 'Sales revenue', '4000..4099'],
  ['R2', 'Service revenue', '4100..4899'],
  { balance: 'DEBIT' },
  ['R3', 'Less: sales returns, allowances and discounts', '4900..4999'],
  { balance: 'CREDIT' },
  ['NR', 'Net revenue', 'R1 + R2 - R3'],
  { balance: 'DEBIT' },
  ['CS', 'Cost of goods sold', '5000..5999'],
  { balance: 'CREDIT' },
  ['GP', 'Gross profit', 'NR - CS'],
  { balance: 'DEBIT' },
  ['OX', 'Total operating expenses', 'OX1 + OX2'],
  ['OX1', 'Selling, general and administrative expenses', '6000..6699, 6800..6999'],
  ['OX2', 'Depreciation and amortization', '6700..6799'],
  { balance: 'CREDIT' },
  ['OI', 'Operating income (loss)', 'GP - OX'],
  ['NI1', 'Other income', '7000..7999'],
  { balance: 'DEBIT' },
  ['NX1', 'Other expenses (interest, losses)', '8000..8999'],
  { balance: 'CREDIT' },
  ['IBT', 'Income (loss) before income taxes', 'OI + NI1 - NX1'],
  { balance: 'DEBIT' },
  ['TX', 'Income tax expense', '9000..9999'],
  { balance: 'CREDIT' },
  ['NI', 'NET INCOME (LOSS)', 'IBT - TX', { result: true }],
];

export const US_VARIANTS = ['US_GAAP'];

export function usSpec(): StatementsSpec {
  return {
    country: 'US', variant: 'US_GAAP',
    balanceSheet: { description: 'Classified balance sheet (US GAAP)', rows: BALANCE_SHEET, totals: { assets: 'AT', equityAndLiabilities: 'LET' } },
    profitAndLoss: { description: 'Multi-step income statement (US GAAP)', rows: INCOME_STATEMENT, resultLine: 'NI' },
  };
}

export const US_INDICATORS = {
  ASSETS: { lines: ['AT'], direction: 'DEBIT' },
  EQUITY: { lines: ['E'], direction: 'CREDIT' },
  WORKING_CAPITAL: { lines: ['AC', 'LC'], direction: 'DEBIT' },
  TREASURY_BALANCE: { lines: ['AC1', 'LC7'], direction: 'DEBIT' },
  TURNOVER: { lines: ['NR'], direction: 'CREDIT' },
  PURCHASES: { prefixes: [{ prefix: '51', sign: 1 }, { prefix: '52', sign: 1 }] },
  STAFF_COST: { prefixes: [{ prefix: '61', sign: 1 }] },
  OTHER_EXPENSES: { lines: ['OX'], direction: 'DEBIT' },
  TAXES: { lines: ['TX'], direction: 'DEBIT' },
  TRADE_MARGIN: { lines: ['GP'], direction: 'CREDIT' },
  RESULT: { lines: ['OI'], direction: 'CREDIT' },
  // Interest only (7000 Interest Income, 8000 Interest Expense): not gains on asset sales nor other income.
  FINANCIAL_RESULT: { prefixes: [{ prefix: '7000', sign: -1 }, { prefix: '8000', sign: -1 }] },
  NET_RESULT: { lines: ['NI'], direction: 'CREDIT' },
} as const;

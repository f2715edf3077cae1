/**
 * United Kingdom and Ireland: FRS 102 with the Companies Act 2006's balance sheet Format 1 (Schedule 1; the Irish
 * Companies Act 2014's Schedule 3 format is the same) and profit and loss Format 1, on the Sage 50 nominal-code
 * ranges of the master chart. Format 1 is vertical: net assets (G − H − I − J) equal capital and reserves (K).
 * Simplifications, stated: letters and numerals the chart does not fill (A called-up capital not paid, B I
 * intangible assets, B III and C III investments, I provisions, the group-undertaking income lines, 13 tax on profit,
 * which the chart has no expense account for) are left out; overdrawn bank accounts (1200..1229 in credit) are
 * creditors due within one year; suspense and mispostings (9998, 9999), to be cleared before the accounts are
 * drawn up, sit with debtors or creditors by sign; depreciation (8000..8099) is an administrative expense.
 */
import type { ModelRow, StatementsSpec } from '../../reports/statement-model.ts';

const BALANCE_SHEET: readonly ModelRow[] = [
  { balance: 'DEBIT' },
  ['B', 'B. Fixed assets', 'B2'],
  ['B2', 'II. Tangible assets', '0010..0059'],
  ['C', 'C. Current assets', 'C1 + C2 + C4'],
  ['C1', 'I. Stocks', '1000..1099'],
  ['C2', 'II. Debtors', '1100..1102, 1104..1199, 9998[D], 9999[D]'],
  ['C4', 'IV. Cash at bank and in hand', '1200..1229[D], 1230..1299'],
  ['D', 'D. Prepayments and accrued income', '1103'],
  { balance: 'CREDIT' },
  ['E', 'E. Creditors: amounts falling due within one year', '2100..2108, 2110..2299, 2320..2399, 1200..1229[C], 9998[C], 9999[C]'],
  ['E2', 'of which 2. Bank loans and overdrafts', '1200..1229[C]', { detailOf: 'E' }],
  { balance: 'DEBIT' },
  ['F', 'F. Net current assets (liabilities)', 'C + D - E'],
  ['G', 'G. Total assets less current liabilities', 'B + F'],
  { balance: 'CREDIT' },
  ['H', 'H. Creditors: amounts falling due after more than one year', '2300..2319'],
  ['J', 'J. Accruals and deferred income', '2109'],
  { balance: 'DEBIT' },
  ['NA', 'Net assets', 'G - H - J'],
  { balance: 'CREDIT' },
  ['K', 'K. Capital and reserves', 'K1 + K4 + K5'],
  ['K1', 'I. Called up share capital', '3000..3099'],
  ['K4', 'IV. Other reserves', '3100..3199'],
  ['K5', 'V. Profit and loss account', '3200..3299', { result: true }],
];

// Every line read credit − debit: income positive, costs negative, the result their sum.
const PROFIT_AND_LOSS: readonly ModelRow[] = [
  { balance: 'CREDIT' },
  ['P01', '1. Turnover', '4000..4099'],
  ['P02', '2. Cost of sales', '5000..6099'],
  ['P03', '3. Gross profit or loss', 'P01 + P02'],
  ['P04', '4. Distribution costs', '6100..6999'],
  ['P05', '5. Administrative expenses', '7000..7899, 7901..8999'],
  ['P06', '6. Other operating income', '4100..4999'],
  ['POP', 'Operating profit or loss', 'P03 + P04 + P05 + P06'],
  ['P12', '12. Interest payable and similar expenses', '7900'],
  ['P14', '14. Profit or loss after taxation', 'POP + P12'],
  ['P20', '20. Profit or loss for the financial year', 'P14', { result: true }],
];

export const GB_VARIANTS = ['FRS102'];

export function gbSpec(): StatementsSpec {
  return {
    country: 'GB', variant: 'FRS102',
    balanceSheet: { description: 'Balance sheet (FRS 102, Companies Act 2006 Format 1)', rows: BALANCE_SHEET, totals: { assets: 'NA', equityAndLiabilities: 'K' } },
    profitAndLoss: { description: 'Profit and loss account (FRS 102, Companies Act 2006 Format 1)', rows: PROFIT_AND_LOSS, resultLine: 'P20' },
  };
}

export const GB_INDICATORS = {
  ASSETS: { lines: ['B', 'C', 'D'], direction: 'DEBIT' },
  EQUITY: { lines: ['K'], direction: 'CREDIT' },
  WORKING_CAPITAL: { lines: ['F'], direction: 'DEBIT' },
  TREASURY_BALANCE: { lines: ['C4', 'E2'], direction: 'DEBIT' },
  TURNOVER: { lines: ['P01'], direction: 'CREDIT' },
  PURCHASES: { prefixes: [{ prefix: '50', sign: 1 }] },
  STAFF_COST: { prefixes: [{ prefix: '60', sign: 1 }, { prefix: '70', sign: 1 }] },
  OTHER_EXPENSES: { lines: ['P04', 'P05'], direction: 'DEBIT' },
  TRADE_MARGIN: { lines: ['P03'], direction: 'CREDIT' },
  RESULT: { lines: ['POP'], direction: 'CREDIT' },
  FINANCIAL_RESULT: { lines: ['P12'], direction: 'CREDIT' },
  // No TAXES: the chart has no expense account for the tax on profit (only 2320 Corporation Tax, the liability).
  NET_RESULT: { lines: ['P20'], direction: 'CREDIT' },
} as const;

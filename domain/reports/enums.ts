/** The reports' enumerations, each once, with Sage Active's values (breadth §1.9, §1.10). */

/** Sage's BalanceGuideLineType: the `lineType` of a balance sheet or P&L row. */
export const BalanceGuideLineType = ['UNDEFINED', 'ACCOUNT_CALCULATION', 'LABEL', 'LINE_CALCULATION', 'RESULT_CALCULATION', 'TITLE'] as const;
export type BalanceGuideLineType = (typeof BalanceGuideLineType)[number];

/** Sage's AccountingIndicatorType (accountingKpis input). */
export const AccountingIndicatorType = [
  'ASSETS', 'EQUITY', 'EXCEPTIONAL_RESULT', 'FINANCIAL_RESULT', 'NET_RESULT', 'OTHER_EXPENSES', 'PURCHASES', 'RESULT',
  'STAFF_COST', 'TAXES', 'TRADE_MARGIN', 'TREASURY_BALANCE', 'TURNOVER', 'WORKING_CAPITAL',
] as const;
export type AccountingIndicatorType = (typeof AccountingIndicatorType)[number];

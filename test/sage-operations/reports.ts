/**
 * The accounting reports as Sage clients ask for them (breadth §1.9; s1-14): the trial balance and the customers'
 * balance of the current exercise, the balance sheet and P&L, an account's report positions and the dashboard
 * KPIs, over the books the earlier operations posted; and userAccessPolicyCheck allowing the six roots now served.
 */
import { assert, nodesOf, type Context, type SageOperation } from './operation.ts';

const sum = (rows: any[], key: string) => rows.reduce((s, r) => s + Math.round(Number(r[key]) * 100), 0);
const year = (ctx: Context) => ({ startDate: `${ctx.year}-01-01`, endDate: `${ctx.year}-12-31` });
const BALANCE_COLUMNS = 'debitAmount creditAmount debitBalance creditBalance balance accumulatedDebitAmount accumulatedCreditAmount accumulatedDebitBalance accumulatedCreditBalance accumulatedBalance';
const STATEMENT_COLUMNS = 'code description lineType order multiColumn amountColumn1 amountColumn2 amountTotal';
const ROOTS = ['accountingTrialBalance', 'accountingThirdPartyBalance', 'accountingBalanceSheet', 'accountingProfitAndLoss', 'accountingReportPositions', 'accountingKpis'];

export const REPORTS: SageOperation[] = [
  {
    name: 'accountingExercises of the current year: the exercise the reports read',
    query: `query accountingExercises { accountingExercises(order: [{ startDate: DESC }], first: 1) { edges { node { id startDate } } } }`,
    expect(data, ctx) {
      const [exercise] = nodesOf(data.accountingExercises);
      assert.match(exercise.startDate, new RegExp(`^${ctx.year}-01-01`));
      ctx.reportExerciseId = exercise.id;
    },
  },
  {
    name: 'accountingTrialBalance of the year, comparative (s1-14): debits equal credits, balance = debit − credit',
    query: `query accountingTrialBalance($input: AccountingTrialBalanceGLDtoInput!) { accountingTrialBalance(input: $input) { accountCode accountDescription accountType ${BALANCE_COLUMNS} } }`,
    variables: (ctx) => ({ input: { exerciseId: ctx.reportExerciseId, ...year(ctx), startAccountCode: '1', endAccountCode: '7', isWithoutZeroBalance: false, isTrialBalanceComparative: true, showTemporaryCarryForward: false, showClosingEntries: true } }),
    expect(data) {
      const rows = data.accountingTrialBalance;
      assert.ok(rows.some((r: any) => r.accountCode === '5720000'), 'the bank account moved');
      assert.equal(sum(rows, 'debitAmount'), sum(rows, 'creditAmount'));
      for (const r of rows) assert.equal(Math.round(Number(r.balance) * 100), Math.round(Number(r.debitAmount) * 100) - Math.round(Number(r.creditAmount) * 100));
    },
  },
  {
    name: 'accountingThirdPartyBalance of the customers (s1-14): the invoiced customers, named',
    query: `query accountingThirdPartyBalance($input: AccountingThirdPartyBalanceGLDtoInput!) { accountingThirdPartyBalance(input: $input) { thirdPartyId thirdPartyDescription ${BALANCE_COLUMNS} } }`,
    variables: (ctx) => ({ input: { thirdPartyType: 'CUSTOMER', exerciseId: ctx.reportExerciseId, ...year(ctx), isWithoutZeroBalance: false, isBalanceComparative: false } }),
    expect(data) {
      const rows = data.accountingThirdPartyBalance;
      assert.ok(rows.length > 0 && rows.every((r: any) => r.thirdPartyId && r.thirdPartyDescription));
    },
  },
  {
    name: 'accountingBalanceSheet (s1-14): assets equal equity and liabilities',
    query: `query accountingBalanceSheet($input: AccountingBalanceSheetGLDtoInput!) { accountingBalanceSheet(input: $input) { ${STATEMENT_COLUMNS} } }`,
    variables: (ctx) => ({ input: { ...year(ctx), onlyLinesWithAmount: false, showTemporaryCarryForward: false } }),
    expect(data) {
      const total = (code: string) => data.accountingBalanceSheet.find((r: any) => r.code === code).amountTotal;
      assert.notEqual(total('AT'), '0.00');
      assert.equal(total('AT'), total('PT'));
    },
  },
  {
    name: 'accountingProfitAndLoss (s1-14): only the lines with amounts',
    query: `query accountingProfitAndLoss($input: AccountingProfitAndLossGLDtoInput!) { accountingProfitAndLoss(input: $input) { ${STATEMENT_COLUMNS} } }`,
    variables: (ctx) => ({ input: { ...year(ctx), onlyLinesWithAmount: true } }),
    expect(data) {
      assert.ok(data.accountingProfitAndLoss.length > 0);
      assert.ok(data.accountingProfitAndLoss.every((r: any) => r.amountTotal !== '0.00' || r.amountColumn1 !== '0.00'));
    },
  },
  {
    name: 'accountingReportPositions of the bank account (s1-14): its main balance-sheet line',
    query: `query accountingReportPositions($input: AccountingReportPositionGLDtoInput!) { accountingReportPositions(input: $input) { id code accountType reportPositions { id balanceGuideLineCode isMain isDetail alternativePositionIfNegative } } }`,
    variables: (ctx) => ({ input: { accountId: ctx.bankAccountId, isDetail: false } }),
    expect(data, ctx) {
      const [account] = data.accountingReportPositions;
      assert.equal(account.id, ctx.bankAccountId);
      assert.ok(account.reportPositions.some((p: any) => p.isMain));
    },
  },
  {
    name: 'accountingKpis (s1-14): each figure asked, in the organisation\'s currency',
    query: `query accountingKpis($input: AccountingKpiInput!) { accountingKpis(input: $input) { type value currency } }`,
    variables: () => ({ input: { kpiTypes: ['TURNOVER', 'TREASURY_BALANCE', 'NET_RESULT'] } }),
    expect(data) {
      assert.deepEqual(data.accountingKpis.map((k: any) => [k.type, k.currency]), [['TURNOVER', 'EUR'], ['TREASURY_BALANCE', 'EUR'], ['NET_RESULT', 'EUR']]);
      assert.ok(Number(data.accountingKpis[0].value) > 0, 'sales were invoiced');
    },
  },
  {
    name: 'userAccessPolicyCheck: the report roots are served, so allowed (pm-070)',
    query: `query userAccessPolicyCheck($actions: [String!]!) { userAccessPolicyCheck(actions: $actions) { action isAllowed } }`,
    variables: () => ({ actions: ROOTS }),
    expect(data) { assert.deepEqual(data.userAccessPolicyCheck, ROOTS.map((action) => ({ action, isAllowed: true }))); },
  },
];

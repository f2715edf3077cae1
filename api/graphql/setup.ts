/**
 * The organisation set-up reads of Sage (fact sheet §2): `organizationAccountingSetupByOrgId(id: ID!)` and
 * `thirdPartyCodeModeSettings`. Answered from what the organisation holds: its installed chart's accounts and its
 * standard journals (domain/reference/chart-defaults.ts), as long as it still has them. A setting we do not keep
 * (payroll, carry-forward, banking reconciliation accounts) is null rather than invented.
 */
import { CODE_FORMAT, PartyKind } from '../../domain/parties/fields.ts';
import { POSTING_LEVEL } from '../../domain/accounting/enums.ts';
import type { OrganisationState } from '../../domain/accounting/organisation.ts';
import { derivedId } from '../../domain/ids.ts';
import { RESULT_ACCOUNTS } from '../../domain/accounting/year-end.ts';
import { masterChartFor } from '../../domain/reference/charts.ts';
import { ANNUAL_ACCOUNTS_MODEL, CHART_DEFAULT_ACCOUNTS, DEFAULT_JOURNALS, type AccountRole, type JournalRole } from '../../domain/reference/chart-defaults.ts';

/** Sage's values [S1 15]: the tax regime is French (we keep none: UNDEFINED); the model follows the chart. */
export const SETUP_ENUMS = {
  TaxRegime: ['UNDEFINED', 'BA', 'BNC', 'GENERAL'],
  AnnualAccountsModel: ['UNDEFINED', 'DATEV_SKR03', 'DATEV_SKR04', 'NORMAL', 'PYME', 'PYME2025'],
} as const;

/** Sage's fields, by the account or journal role that answers each (null: a setting we do not keep). */
const ACCOUNT_FIELDS: Record<string, AccountRole | null> = {
  defaultCustomersAccountId: 'customers',
  defaultSuppliersAccountId: 'suppliers',
  defaultPrepaymentCustomerAccountId: null,
  defaultBankAccountId: 'bank',
  defaultCashAccountId: 'cash',
  defaultBankingAdjustmentsId: null,
  defaultBankingTransactionsId: null,
  defaultInputVATAccountId: 'inputVat',
  defaultOutputVATAccountId: 'outputVat',
  defaultPurchaseProductsAccountId: 'purchaseProducts',
  defaultSaleProductsAccountId: 'saleProducts',
  intracommunityAccountId: 'intracommunity',
  foreignAccountId: 'foreign',
  // The year end's result accounts (domain/accounting/year-end.ts), answered below.
  defaultProfitAccountCFId: null,
  defaultLossAccountCFId: null,
  defaultOpeningAccountCFId: null,
  defaultResultAccountCFId: null,
  defaultCreditorsAccountCFId: null,
  defaultDebtorsAccountCFId: null,
  defaultFinancialDiscountAccountId: null,
};
const JOURNAL_FIELDS: Record<string, JournalRole | null> = {
  defaultBankJournalTypeId: 'bank',
  defaultCashJournalTypeId: 'cash',
  defaultOpeningJournalCFId: 'opening',
  defaultPayrollJournalTypeId: 'payroll',
  defaultPayrollSessionId: null,
  defaultFixedAssetJournalTypeId: null,
};

export const SETUP_SDL = `
type OrganizationAccountingSetup {
  id: UUID!
  organizationId: UUID!
  organizationSocialName: String
  subAccountingLength: Int
  taxRegime: TaxRegime
  annualAccountsModel: AnnualAccountsModel
  openItemsAutomaticAllocation: Boolean
${[...Object.keys(ACCOUNT_FIELDS), ...Object.keys(JOURNAL_FIELDS)].map((name) => `  ${name}: UUID`).join('\n')}
  "Ours (Odoo's lock dates, set by updateAccountingLockDates): nothing dated on or before either is posted or deleted."
  lockDate: DateTime
  hardLockDate: DateTime
}
type ThirdPartyCodeModeSettings {
  customerCodeIsManual: Boolean!
  supplierCodeIsManual: Boolean!
  employeeCodeIsManual: Boolean!
}`;

export const SETUP_ROOT_FIELDS = `
  organizationAccountingSetupByOrgId(id: ID!): OrganizationAccountingSetup
  thirdPartyCodeModeSettings: ThirdPartyCodeModeSettings`;

type Org = OrganisationState & { id: string; country: NonNullable<OrganisationState['country']> };

export function accountingSetup(org: Org, socialName: string | null) {
  const chart = masterChartFor(org.country);
  const accounts = CHART_DEFAULT_ACCOUNTS[chart.key] ?? {};
  const journals = DEFAULT_JOURNALS[org.country];
  // An id only while the organisation still has the account or journal active (it may have deleted or deactivated it).
  const active = (id: string | undefined, of: Map<string, { deactivated: boolean }>) => (id !== undefined && of.get(id)?.deactivated === false ? id : null);
  const accountId = (role: AccountRole | null) => (role && accounts[role] ? active(org.accountIdByCode.get(accounts[role]), org.accounts) : null);
  const journalId = (role: JournalRole | null) => (role && journals[role] ? active(org.journalTypeIdByCode.get(journals[role]), org.journalTypes) : null);
  return {
    id: derivedId(org.id, 'accounting-setup', 'default'),
    organizationId: org.id,
    organizationSocialName: socialName,
    // The length of the installed chart's posting accounts' codes.
    subAccountingLength: chart.lines.find((line) => line.accountLevel === POSTING_LEVEL)?.code.length ?? null,
    taxRegime: 'UNDEFINED',
    annualAccountsModel: ANNUAL_ACCOUNTS_MODEL[chart.key] ?? 'UNDEFINED',
    // Payments are not matched with open items automatically (nor at all yet).
    openItemsAutomaticAllocation: false,
    ...Object.fromEntries(Object.entries(ACCOUNT_FIELDS).map(([name, role]) => [name, accountId(role)])),
    ...Object.fromEntries(Object.entries(JOURNAL_FIELDS).map(([name, role]) => [name, journalId(role)])),
    defaultProfitAccountCFId: active(org.accountIdByCode.get(RESULT_ACCOUNTS[org.country].profit), org.accounts),
    defaultLossAccountCFId: active(org.accountIdByCode.get(RESULT_ACCOUNTS[org.country].loss), org.accounts),
    lockDate: org.lockDate,
    hardLockDate: org.hardLockDate,
  };
}

/** A party's code is generated when the client sends none (domain/parties): no kind's code must be typed in. */
export function thirdPartyCodeModeSettings() {
  const manual = (kind: PartyKind) => !(kind in CODE_FORMAT);
  return { customerCodeIsManual: manual('customer'), supplierCodeIsManual: manual('supplier'), employeeCodeIsManual: manual('employee') };
}

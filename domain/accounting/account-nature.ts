/**
 * An account's nature (internal, enums.ts AccountNature) beside Sage's accountType and sub-type: where it
 * comes from for an account made outside the charts, and what reads of it depend on it. Absent (null)
 * rather than invented when nothing says it.
 */
import type { OrganisationCountry } from '../enums.ts';
import { ACCOUNT_TYPE_OF, PLAIN_SUB_ACCOUNT_TYPE, type AccountNature, type AccountType, type SubAccountType } from './enums.ts';

/** The nature a sub-type implies, where it implies one (contra accounts take the side they reduce). */
export const NATURE_OF_SUB_ACCOUNT_TYPE: Readonly<Partial<Record<SubAccountType, AccountNature>>> = {
  CHARGE: 'EXPENSE', COST: 'EXPENSE', EXCHANGE_RATE_EXPENSE: 'EXPENSE', NEUTRAL_EXPENSES: 'EXPENSE', REDUCTION_IN_EXPENSES: 'EXPENSE',
  REVENUE: 'INCOME', EXCHANGE_RATE_INCOME: 'INCOME', NEUTRAL_REVENUE: 'INCOME', SALES_DEDUCTION: 'INCOME',
  CAPITAL: 'EQUITY', RESULT_BALANCE_SHEET: 'EQUITY', BALANCE_CARRIED_FORWARD: 'EQUITY',
  BANK: 'ASSET', CASH: 'ASSET', CUSTOMER: 'ASSET', FIXED_ASSET: 'ASSET', DEPRECIATION_PROVISION: 'ASSET', STOCK: 'ASSET',
  INPUT_TAX: 'ASSET', CURRENT_ASSETS: 'ASSET', CURRENT_ASSETS_INPUT_TAX: 'ASSET', SUPPLIER_PREPAYMENT: 'ASSET',
  SUPPLIER_PREPAYMENT_TAX_INCLUDED: 'ASSET', CUSTOMER_RETURNABLE_PACKAGING: 'ASSET',
  PROVIDER: 'LIABILITY', EMPLOYEE: 'LIABILITY', OUTPUT_TAX: 'LIABILITY', BORROWED_CAPITAL: 'LIABILITY', BORROWED_CAPITAL_OUTPUT_TAX: 'LIABILITY',
  CUSTOMER_PREPAYMENT: 'LIABILITY', CUSTOMER_PREPAYMENT_TAX_INCLUDED: 'LIABILITY', SUPPLIER_RETURNABLE_PACKAGING: 'LIABILITY',
  STATISTICAL_BALANCE: 'OFF_BALANCE', STATISTICAL_CONSUMPTION: 'OFF_BALANCE',
};

/** Sage's statement of off-balance accounts by legislation (classes 8-9); elsewhere none is known. */
export function offBalanceAccountType(country: OrganisationCountry | string | null | undefined): AccountType {
  return country === 'ES' ? 'ECPN' : country === 'FR' ? 'SPECIAL' : country === 'DE' ? 'STATISTICAL' : 'UNDEFINED';
}

/** Does `nature` belong on `accountType`'s statement? An undefined statement contradicts none. */
function fits(nature: AccountNature, accountType: AccountType): boolean {
  if (accountType === 'UNDEFINED') return true;
  return nature === 'OFF_BALANCE' ? ['ECPN', 'SPECIAL', 'STATISTICAL'].includes(accountType) : ACCOUNT_TYPE_OF[nature] === accountType;
}

/**
 * The nature of an account of `accountType` and `subAccountType`: the first of `known` (its chart line's,
 * its current one) that fits the statement, else the sub-type's, else null.
 */
export function accountNature(accountType: AccountType, subAccountType: SubAccountType, ...known: (AccountNature | null | undefined)[]): AccountNature | null {
  const candidates = [...known, NATURE_OF_SUB_ACCOUNT_TYPE[subAccountType]];
  return candidates.find((n): n is AccountNature => !!n && fits(n, accountType)) ?? null;
}

/** The sub-type of an account of no particular role (our first GENERAL) of `nature`: UNDEFINED when none is known. */
export const plainSubAccountType = (nature: AccountNature | null | undefined): SubAccountType => (nature ? PLAIN_SUB_ACCOUNT_TYPE[nature] : 'UNDEFINED');

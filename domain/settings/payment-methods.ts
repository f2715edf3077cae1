/**
 * Payment methods (Sage's "bank accounts and cash"): where money is paid in or out. Each posts to a
 * sub-account of the organisation's chart through one of its journal types, which the settlement of open
 * items will use (paymentMethodId). Distinct from payment means (transfer, cheque...), which say how.
 */
import { AccountingErrors } from '../accounting/errors.ts';
import { POSTING_LEVEL } from '../accounting/enums.ts';
import type { OrganisationState } from '../accounting/organisation.ts';
import { fail } from '../errors.ts';
import { checkBic, checkIban } from '../parties/validation.ts';
import type { PaymentMethodType } from './enums.ts';

export interface PaymentMethodFields {
  referenceName: string;
  type: PaymentMethodType;
  disabled: boolean;
  journalTypeId: string;
  subAccountId: string;
  iban: string | null;
  bic: string | null;
  bankName: string | null;
}
export type PaymentMethodChanges = Partial<PaymentMethodFields>;

/** The journal type and sub-account must be the organisation's, in use (not deactivated), the account a posting one. */
function checkAccounting(organisation: OrganisationState, f: PaymentMethodChanges): void {
  if (f.journalTypeId !== undefined) {
    const journal = organisation.journalTypes.get(f.journalTypeId) ?? fail(AccountingErrors.journalTypeNotFound, { id: f.journalTypeId });
    if (journal.deactivated) fail(AccountingErrors.journalTypeDeactivated, { code: journal.code });
  }
  if (f.subAccountId !== undefined) {
    const account = organisation.accounts.get(f.subAccountId) ?? fail(AccountingErrors.accountNotFound, { id: f.subAccountId, field: 'subAccountId' });
    if (account.accountLevel !== POSTING_LEVEL) fail(AccountingErrors.accountNotPostable, { code: account.code, field: 'subAccountId' });
    if (account.deactivated) fail(AccountingErrors.accountDeactivated, { code: account.code, field: 'subAccountId' });
  }
}

/** The fields (all of a creation's, or an update's changes) checked and normalised: IBAN and BIC compact, upper case. */
export function decidePaymentMethodFields<F extends PaymentMethodChanges>(organisation: OrganisationState, f: F): F {
  checkAccounting(organisation, f);
  return checkedBankDetails({ ...f, ...(f.referenceName !== undefined && { referenceName: f.referenceName.trim() }) });
}

/** A payment method's or mean's IBAN and BIC, when given, checked and compact in upper case ("" is no IBAN: refused). */
export function checkedBankDetails<F extends { iban?: string | null; bic?: string | null }>(f: F): F {
  const out = { ...f };
  if (typeof f.iban === 'string') out.iban = checkIban(f.iban, 'iban');
  if (typeof f.bic === 'string') out.bic = checkBic(f.bic, 'bic');
  return out;
}

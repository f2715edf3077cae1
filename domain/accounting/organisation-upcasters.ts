/**
 * The Organisation's event shapes over time (see ../upcasters.ts): version 1 -> 2 reads our first enum
 * values of accounts and journal types as Sage's (enums.ts RENAMED). Steps run by the version recorded
 * with each event, so a value both old and new (GROUP, our group and Sage's class) is renamed once only.
 */
import type { EventUpcaster } from '../upcasters.ts';
import { plainSubAccountType } from './account-nature.ts';
import { ACCOUNT_TYPE_OF, AccountNature, RENAMED } from './enums.ts';
import { renamed } from '../renaming.ts';

type Data = Record<string, unknown>;

/**
 * An account's fields (created) or changes (updated). Our first accountType was its nature: kept as the
 * internal nature; OFF_BALANCE's statement depends on the country, which the event does not carry, so it
 * reads UNDEFINED here marked offBalanceByCountry, and the fold and the projection give the organisation's
 * (account-nature.ts) on that marker only: a new event may say UNDEFINED of an off-balance account too, and
 * means it. GENERAL becomes the plain sub-type of the nature beside it, or, in an update without one, of the
 * account's nature when read (plainSubAccountType).
 */
function accountNow(fields: Data, generalOfAccount = false): Data {
  const out = { ...fields };
  const nature = AccountNature.find((n) => n === fields.accountType);
  if ('accountLevel' in out) out.accountLevel = renamed(out.accountLevel, RENAMED.accountLevel);
  if (nature === 'OFF_BALANCE') Object.assign(out, { nature, accountType: 'UNDEFINED', offBalanceByCountry: true });
  else if (nature) Object.assign(out, { nature, accountType: ACCOUNT_TYPE_OF[nature] });
  if (out.subAccountType === 'GENERAL' && !nature && generalOfAccount) {
    delete out.subAccountType;
    out.plainSubAccountType = true;
  } else if (out.subAccountType === 'GENERAL') out.subAccountType = plainSubAccountType(nature);
  else if ('subAccountType' in out) out.subAccountType = renamed(out.subAccountType, RENAMED.subAccountType);
  return out;
}

/** An account's changes: GENERAL without a nature beside it is the plain sub-type of the account's own. */
const accountChangesNow = (changes: Data): Data => accountNow(changes, true);

/** Our credit-note journal types were written isCreditNote false unless sent: the old type says it. */
function journalTypeNow(fields: Data): Data {
  const out = { ...fields };
  if (out.type === 'SALES_CREDIT_NOTE' || out.type === 'PURCHASE_CREDIT_NOTE') out.isCreditNote = true;
  if ('type' in out) out.type = renamed(out.type, RENAMED.journalType);
  if ('creditNoteReason' in out) out.creditNoteReason = renamed(out.creditNoteReason, RENAMED.creditNoteReason);
  return out;
}

const created = (type: string, now: (d: Data) => Data): EventUpcaster => ({ type, from: 1, upcast: now });
const updated = (type: string, now: (d: Data) => Data): EventUpcaster => ({
  type, from: 1, upcast: (data) => ({ ...data, changes: now(data.changes as Data) }),
});

export const ORGANISATION_UPCASTERS: readonly EventUpcaster[] = [
  created('AccountingAccountCreated', accountNow),
  updated('AccountingAccountUpdated', accountChangesNow),
  created('JournalTypeCreated', journalTypeNow),
  updated('JournalTypeUpdated', journalTypeNow),
];

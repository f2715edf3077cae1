/**
 * The Organisation's event shapes over time (see ../upcasters.ts): version 1 -> 2 reads our first enum
 * values of accounts and journal types as Sage's (enums.ts RENAMED). Steps run by the version recorded
 * with each event, so a value both old and new (GROUP, our group and Sage's class) is renamed once only.
 */
import type { EventUpcaster } from '../upcasters.ts';
import { AccountNature, PLAIN_SUB_ACCOUNT_TYPE, RENAMED, renamed } from './enums.ts';

type Data = Record<string, unknown>;

/** An account's fields (created) or changes (updated): GENERAL becomes the plain sub-type of the nature beside it. */
function accountNow(fields: Data): Data {
  const out = { ...fields };
  const nature = AccountNature.find((n) => n === fields.accountType);
  if ('accountLevel' in out) out.accountLevel = renamed(out.accountLevel, RENAMED.accountLevel);
  if ('accountType' in out) out.accountType = renamed(out.accountType, RENAMED.accountType);
  if (out.subAccountType === 'GENERAL') out.subAccountType = nature ? PLAIN_SUB_ACCOUNT_TYPE[nature] : 'UNDEFINED';
  else if ('subAccountType' in out) out.subAccountType = renamed(out.subAccountType, RENAMED.subAccountType);
  return out;
}

function journalTypeNow(fields: Data): Data {
  const out = { ...fields };
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
  updated('AccountingAccountUpdated', accountNow),
  created('JournalTypeCreated', journalTypeNow),
  updated('JournalTypeUpdated', journalTypeNow),
];

/** Which accounting events reach trigger queues, under which object and action, and their public data. */
import type { LedgerEvent } from '../../domain/accounting/ledger.ts';
import type { OrganisationEvent } from '../../domain/accounting/organisation.ts';
import type { Describe, EventCatalog, QueuedPublic } from '../event-catalog.ts';

/**
 * An account's fields that are ours, not Sage's: `nature` (what reports and the year end need, beside Sage's
 * accountType; domain/accounting/account-nature.ts) and the markers the upcasters set on events stored with
 * our first values (`plainSubAccountType`, `offBalanceByCountry`: the fold and the read model resolve them with
 * the account's nature or the organisation's country, which the event does not carry). Consumers read the
 * interface's fields only: none of these is one, and a marker without its resolved value would mislead.
 */
const INTERNAL_ACCOUNT_FIELDS = ['nature', 'plainSubAccountType', 'offBalanceByCountry'] as const;

const withoutInternal = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([name]) => !(INTERNAL_ACCOUNT_FIELDS as readonly string[]).includes(name)));

/** An account's event: its fields (created) or changes (updated) without the internal ones. */
const account = (describe: Describe): QueuedPublic => ({
  describe,
  publicData: (d) => ('changes' in d ? { ...d, changes: withoutInternal(d.changes) } : withoutInternal(d)),
});

export const ACCOUNTING_EVENTS: EventCatalog<OrganisationEvent['type'] | LedgerEvent['type']> = {
  OrganisationCreated: { notQueued: 'an organisation is created by an operator before any client of it can subscribe' },
  AccountingEntryPosted: (d) => ({ object: 'accountingEntry', event: 'after.create', key: d.entryId, id: String(d.number) }),
  AccountingEntryDeleted: (d) => ({ object: 'accountingEntry', event: 'after.delete', key: d.entryId, id: String(d.number) }),
  AccountingAccountCreated: account((d) => ({ object: 'accountingAccount', event: 'after.create', key: d.accountId, id: d.code })),
  AccountingAccountUpdated: account((d) => ({ object: 'accountingAccount', event: 'after.update', key: d.accountId, id: d.accountId })),
  AccountingAccountDeleted: (d) => ({ object: 'accountingAccount', event: 'after.delete', key: d.accountId, id: d.code }),
  JournalTypeCreated: (d) => ({ object: 'journalType', event: 'after.create', key: d.journalTypeId, id: d.code }),
  JournalTypeUpdated: (d) => ({ object: 'journalType', event: 'after.update', key: d.journalTypeId, id: d.journalTypeId }),
  JournalTypeDeleted: (d) => ({ object: 'journalType', event: 'after.delete', key: d.journalTypeId, id: d.code }),
  AccountingExerciseCreated: (d) => ({ object: 'accountingExercise', event: 'after.create', key: d.exerciseId, id: String(d.exercise) }),
  AccountingExerciseClosed: (d) => ({ object: 'accountingExercise', event: 'after.close', key: d.exerciseId, id: d.exerciseId }),
  AccountingPeriodClosed: (d) => ({ object: 'accountingPeriod', event: 'after.close', key: d.periodId, id: d.periodId }),
  AccountingPeriodReopened: (d) => ({ object: 'accountingPeriod', event: 'after.reopen', key: d.periodId, id: d.periodId }),
};

/** Which accounting events reach trigger queues, and under which object and action. */
import type { LedgerEvent } from '../../domain/accounting/ledger.ts';
import type { OrganisationEvent } from '../../domain/accounting/organisation.ts';
import type { EventCatalog } from '../event-catalog.ts';

export const ACCOUNTING_EVENTS: EventCatalog<OrganisationEvent['type'] | LedgerEvent['type']> = {
  OrganisationCreated: { notQueued: 'an organisation is created by an operator before any client of it can subscribe' },
  AccountingEntryPosted: (d) => ({ object: 'accountingEntry', event: 'after.create', key: d.entryId, id: String(d.number) }),
  AccountingEntryDeleted: (d) => ({ object: 'accountingEntry', event: 'after.delete', key: d.entryId, id: String(d.number) }),
  AccountingAccountCreated: (d) => ({ object: 'accountingAccount', event: 'after.create', key: d.accountId, id: d.code }),
  AccountingAccountUpdated: (d) => ({ object: 'accountingAccount', event: 'after.update', key: d.accountId, id: d.accountId }),
  AccountingAccountDeleted: (d) => ({ object: 'accountingAccount', event: 'after.delete', key: d.accountId, id: d.code }),
  JournalTypeCreated: (d) => ({ object: 'journalType', event: 'after.create', key: d.journalTypeId, id: d.code }),
  JournalTypeUpdated: (d) => ({ object: 'journalType', event: 'after.update', key: d.journalTypeId, id: d.journalTypeId }),
  JournalTypeDeleted: (d) => ({ object: 'journalType', event: 'after.delete', key: d.journalTypeId, id: d.code }),
  AccountingExerciseCreated: (d) => ({ object: 'accountingExercise', event: 'after.create', key: d.exerciseId, id: String(d.exercise) }),
  AccountingExerciseClosed: (d) => ({ object: 'accountingExercise', event: 'after.close', key: d.exerciseId, id: d.exerciseId }),
  AccountingPeriodClosed: (d) => ({ object: 'accountingPeriod', event: 'after.close', key: d.periodId, id: d.periodId }),
  AccountingPeriodReopened: (d) => ({ object: 'accountingPeriod', event: 'after.reopen', key: d.periodId, id: d.periodId }),
};

/** Which accounting events reach trigger queues, under which object and action, and their public data. */
import type { LedgerEvent } from '../../domain/accounting/ledger.ts';
import type { OrganisationEvent } from '../../domain/accounting/organisation.ts';
import { offBalanceAccountType, plainSubAccountType } from '../../domain/accounting/account-nature.ts';
import type { AccountNature } from '../../domain/accounting/enums.ts';
import { Organisation } from '../../projections/accounting/organisation.ts';
import { AccountingAccount } from '../../projections/accounting/read-models.ts';
import type { ContextRead, Describe, EventCatalog, QueuedPublic } from '../event-catalog.ts';

/**
 * An account's fields that are ours, not Sage's: `nature` (what reports and the year end need, beside Sage's
 * accountType; domain/accounting/account-nature.ts) and the markers the upcasters set on events stored with
 * our first values (`plainSubAccountType`, `offBalanceByCountry`). Consumers read the interface's fields only:
 * a marker is rendered as the value the fold and the read model give it (the organisation's off-balance
 * statement, the plain sub-type of the account's nature), never dropped, so a message says what the read model does.
 */
const INTERNAL_ACCOUNT_FIELDS = ['nature', 'plainSubAccountType', 'offBalanceByCountry'] as const;

/** What renders an old account event's markers: its organisation's country, and the account's nature now (the read model's). */
interface AccountContext {
  country: string | null;
  nature: AccountNature | null;
}

const hasMarker = (fields: Record<string, unknown> | undefined) => !!fields && (fields.offBalanceByCountry === true || fields.plainSubAccountType === true);

const accountContext: ContextRead = {
  needs: ({ data }) => hasMarker('changes' in data ? data.changes : data),
  async read(db, messages) {
    const { rows } = await db.query(
      // to_jsonb(a): the column is read only where it exists. While an upgrade rebuilds the chart in the background,
      // the table serving is the previous version's (without `nature`), and a page of old messages must not fail on it.
      `SELECT o.country, to_jsonb(a)->>'nature' AS nature FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS x(organisation_id, account_id, n)
       LEFT JOIN ${Organisation.table} o ON o.id = x.organisation_id
       LEFT JOIN ${AccountingAccount.table} a ON a.id = x.account_id AND a.organisation_id = x.organisation_id
       ORDER BY x.n`,
      [messages.map((m) => m.metadata.organisationId ?? null), messages.map((m) => m.data.accountId ?? null)],
    );
    return rows as AccountContext[];
  },
};

/** Fields (created) or changes (updated) as consumers read them: markers resolved with `context`, internal fields gone. */
function publicFields(fields: Record<string, unknown>, context: AccountContext | undefined): Record<string, unknown> {
  const out = Object.fromEntries(Object.entries(fields).filter(([name]) => !(INTERNAL_ACCOUNT_FIELDS as readonly string[]).includes(name)));
  if (fields.offBalanceByCountry === true) out.accountType = offBalanceAccountType(context?.country);
  // An account deleted since (or a chart still being rebuilt) has no nature to read: the sub-type is left out, not invented.
  if (fields.plainSubAccountType === true && context?.nature) out.subAccountType = plainSubAccountType(context.nature);
  return out;
}

/** An account's event: its fields (created) or changes (updated) as the interface has them. */
const account = (describe: Describe): QueuedPublic => ({
  describe,
  readContext: accountContext,
  publicData: (d, context) => ('changes' in d ? { ...d, changes: publicFields(d.changes, context as AccountContext) } : publicFields(d, context as AccountContext)),
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
  AccountingExerciseReopened: (d) => ({ object: 'accountingExercise', event: 'after.reopen', key: d.exerciseId, id: d.exerciseId }),
  // An integration that posts needs to know which dates the books refuse.
  AccountingLockDatesSet: (d) => ({ object: 'accountingLockDates', event: 'after.update', key: d.organisationId, id: d.organisationId }),
  AccountingPeriodClosed: (d) => ({ object: 'accountingPeriod', event: 'after.close', key: d.periodId, id: d.periodId }),
  AccountingPeriodReopened: (d) => ({ object: 'accountingPeriod', event: 'after.reopen', key: d.periodId, id: d.periodId }),
};

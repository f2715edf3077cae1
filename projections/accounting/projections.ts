/** Projections of the Organisation and Ledger events into the accounting read models. */
import type { LedgerEvent } from '../../domain/accounting/ledger.ts';
import type { OrganisationEvent } from '../../domain/accounting/organisation.ts';
import { derivedId } from '../../domain/ids.ts';
import type { RecordedEvent } from '../../eventstore/port.ts';
import { projectionsOf, type Projection, type TableOf } from '../engine/projection.ts';
import type { Writes } from '../engine/writes.ts';
import {
  AccountingAccount, AccountingEntry, AccountingEntryLine, AccountingExercise, AccountingPeriod, JournalType, OrganizationCurrency, Session,
} from './read-models.ts';
import { Organisation } from './organisation.ts';
import { ENTRY_DOCUMENT_RESOURCES } from './entry-documents.ts';
import { deleteEntryDocuments, insertEntryDocuments } from './entry-document-rows.ts';
import { offBalanceAccountTypeOf, plainSubAccountTypeOf } from './account-nature.ts';
import { OldLineReferences, PARTY_LIFE_EVENT_TYPES, ThirdPartyReference, applyPartyLife, isPartyLifeEvent } from './third-party-references.ts';
import { BALANCE_RESOURCES } from './balances.ts';

type Known = OrganisationEvent | LedgerEvent;
const known = (e: RecordedEvent) => ({ type: e.type, data: e.data }) as Known;
const org = (e: RecordedEvent) => e.metadata.organisationId as string;

/**
 * An organisation's currency row id. Every posting names one, and a SHA-1 per posting shows in rebuilds.
 * The last one found is kept apart: postings come in runs of one organisation and currency, and a
 * repeat then costs two comparisons instead of spelling and hashing the cache's key.
 */
const currencyIds = new Map<string, string>();
let lastCurrency: { organisationId: string; code: string; id: string } | undefined;
function currencyId(organisationId: string, code: string): string {
  if (organisationId === lastCurrency?.organisationId && code === lastCurrency.code) return lastCurrency.id;
  const key = `${organisationId}:${code}`;
  let id = currencyIds.get(key);
  if (id === undefined) {
    if (currencyIds.size >= 10_000) currencyIds.clear(); // bounded: a cache, not a registry
    id = derivedId(organisationId, 'currency', code);
    currencyIds.set(key, id);
  }
  lastCurrency = { organisationId, code, id };
  return id;
}

export const organisationsProjection: Projection = {
  name: 'organisations',
  resources: [Organisation, Session, OrganizationCurrency],
  eventTypes: ['OrganisationCreated'],
  apply(event, w, t) {
    const e = known(event);
    if (e.type !== 'OrganisationCreated') return;
    const d = e.data;
    const organisationId = d.organisationId;
    w.insert(Organisation, t(Organisation), { id: organisationId, name: d.name, country: d.country, baseCurrency: d.baseCurrency, features: d.features.join(','), creationDate: d.at });
    w.insert(Session, t(Session), { organisationId, id: d.defaultSessionId, name: 'Default', stamp: 'DEFAULT', isDefault: true, deactivated: false, creationDate: d.at, modificationDate: d.at });
    w.insert(OrganizationCurrency, t(OrganizationCurrency), { organisationId, id: currencyId(organisationId, d.baseCurrency), code: d.baseCurrency, description: d.baseCurrency, precision: d.currencyPrecision, isBaseCurrency: true, creationDate: d.at, modificationDate: d.at });
  },
};

export const chartProjection: Projection = {
  name: 'chart',
  resources: [AccountingAccount, JournalType],
  // 1: accounts' levels, types and sub-types and journal types with Sage's values (issue 17). 2: old OFF_BALANCE
  // by country, old GENERAL updates by nature, old credit-note journal types isCreditNote. 3: by country only
  // where the upcaster marks an old OFF_BALANCE (a new UNDEFINED off-balance account stays UNDEFINED).
  revision: 3,
  eventTypes: ['AccountingAccountCreated', 'AccountingAccountUpdated', 'AccountingAccountDeleted', 'JournalTypeCreated', 'JournalTypeUpdated', 'JournalTypeDeleted'],
  apply(event, w, t) {
    const e = known(event);
    const organisationId = org(event);
    switch (e.type) {
      case 'AccountingAccountCreated': {
        const { accountId, at, offBalanceByCountry, ...fields } = e.data;
        w.insert(AccountingAccount, t(AccountingAccount), { ...fields, nature: fields.nature ?? null, organisationId, id: accountId, creationDate: at, modificationDate: at });
        if (offBalanceByCountry) offBalanceAccountTypeOf(w, t(AccountingAccount), accountId, organisationId);
        return;
      }
      case 'AccountingAccountUpdated': {
        const { plainSubAccountType, offBalanceByCountry, ...changes } = e.data.changes;
        w.update(AccountingAccount, t(AccountingAccount), { id: e.data.accountId }, { ...changes, modificationDate: e.data.at });
        if (plainSubAccountType) plainSubAccountTypeOf(w, t(AccountingAccount), e.data.accountId);
        if (offBalanceByCountry) offBalanceAccountTypeOf(w, t(AccountingAccount), e.data.accountId, organisationId);
        return;
      }
      case 'AccountingAccountDeleted':
        return w.delete(AccountingAccount, t(AccountingAccount), { id: e.data.accountId });
      case 'JournalTypeCreated': {
        const { journalTypeId, at, ...fields } = e.data;
        return w.insert(JournalType, t(JournalType), { ...fields, organisationId, id: journalTypeId, creationDate: at, modificationDate: at });
      }
      case 'JournalTypeUpdated':
        return w.update(JournalType, t(JournalType), { id: e.data.journalTypeId }, { ...e.data.changes, modificationDate: e.data.at });
      case 'JournalTypeDeleted':
        return w.delete(JournalType, t(JournalType), { id: e.data.journalTypeId });
    }
  },
};

export const exercisesProjection: Projection = {
  name: 'exercises',
  resources: [AccountingExercise, AccountingPeriod],
  eventTypes: ['AccountingExerciseCreated', 'AccountingPeriodClosed', 'AccountingPeriodReopened', 'AccountingExerciseClosed', 'AccountingExerciseReopened'],
  apply(event, w, t) {
    const e = known(event);
    const organisationId = org(event);
    switch (e.type) {
      case 'AccountingExerciseCreated': {
        const d = e.data;
        w.insert(AccountingExercise, t(AccountingExercise), { organisationId, id: d.exerciseId, exercise: d.exercise, description: d.description, startDate: d.startDate, endDate: d.endDate, numberPeriods: d.periods.length, status: 'OPEN', creationDate: d.at, modificationDate: d.at });
        for (const p of d.periods) {
          w.insert(AccountingPeriod, t(AccountingPeriod), { organisationId, id: p.periodId, accountingExerciseId: d.exerciseId, month: p.month, startDate: p.startDate, endDate: p.endDate, isClosed: false, creationDate: d.at, modificationDate: d.at });
        }
        return;
      }
      case 'AccountingPeriodClosed':
      case 'AccountingPeriodReopened':
        return w.update(AccountingPeriod, t(AccountingPeriod), { id: e.data.periodId }, { isClosed: e.type === 'AccountingPeriodClosed', modificationDate: e.data.at });
      case 'AccountingExerciseClosed':
      case 'AccountingExerciseReopened':
        return w.update(AccountingExercise, t(AccountingExercise), { id: e.data.exerciseId }, { status: e.type === 'AccountingExerciseClosed' ? 'CLOSED' : 'OPEN', modificationDate: e.data.at });
    }
  },
};

export const entriesProjection: Projection = {
  name: 'entries',
  resources: [AccountingEntry, AccountingEntryLine, ThirdPartyReference, ...ENTRY_DOCUMENT_RESOURCES, ...BALANCE_RESOURCES],
  // 1: entry and source types with Sage's values (issue 17). 2: lines stored without their third party's id get
  // the party their code (or id) named when posted, free text none (third-party-references.ts).
  revision: 2,
  eventTypes: ['AccountingEntryPosted', 'AccountingEntryDeleted', 'AccountingPeriodClosed', 'AccountingPeriodReopened', ...PARTY_LIFE_EVENT_TYPES],
  apply(event, w, t) {
    this.applyBatch!([event], w, t);
  },
  applyBatch(events, w, t) {
    const oldLines = new OldLineReferences();
    for (const event of events) {
      if (isPartyLifeEvent(event.type)) {
        oldLines.resolve(w, t); // against the parties as they stood before this event
        applyPartyLife(event, w, t);
      } else applyLedgerEvent(event, w, t, oldLines);
    }
    oldLines.resolve(w, t);
  },
};

/** An entry's posting or deletion, or a period's close or reopening; old lines naming a third party wait in `oldLines`. */
function applyLedgerEvent(event: RecordedEvent, w: Writes, t: TableOf, oldLines: OldLineReferences): void {
  const e = known(event);
  const organisationId = org(event);
  switch (e.type) {
    case 'AccountingEntryPosted': {
      const d = e.data;
      w.insert(AccountingEntry, t(AccountingEntry), {
        organisationId, id: d.entryId, number: d.number, date: d.date, documentDate: d.documentDate, documentNumber: d.documentNumber,
        description: d.description, journalTypeId: d.journalTypeId, accountingExerciseId: d.exerciseId, accountingPeriodId: d.periodId,
        sessionId: d.sessionId, currencyId: currencyId(organisationId, d.currencyCode), entryType: d.entryType, sourceType: d.sourceType,
        sourceEntityId: d.sourceEntityId ?? null, isClosed: d.inClosedPeriod ?? false, ...(d.inClosedPeriod && { closeDate: d.at }), creationDate: d.at, modificationDate: d.at,
      });
      for (const l of d.lines) {
        w.insert(AccountingEntryLine, t(AccountingEntryLine), {
          organisationId, id: l.lineId, accountingEntryId: d.entryId, order: l.order, subAccountId: l.subAccountId, debitAmount: l.debitAmount,
          creditAmount: l.creditAmount, description: l.description, documentNumber: d.documentNumber, thirdCode: l.thirdCode,
          thirdPartyId: l.thirdPartyId, thirdPartyOrigin: l.thirdPartyOrigin, creationDate: d.at, modificationDate: d.at,
          date: d.date, accountingExerciseId: d.exerciseId, accountingPeriodId: d.periodId, entryType: d.entryType, recordedAt: event.recordedAt,
          ...insertEntryDocuments(w, t, organisationId, d, l),
        });
        if (!l.thirdPartyId && l.thirdCode) oldLines.add(organisationId, l.lineId, l.thirdCode);
      }
      return;
    }
    case 'AccountingEntryDeleted': {
      const d = e.data;
      // Old lines posted earlier in this batch get their party first: deleted, they are kept with it, as when each
      // event is its own batch (live), so the tombstones do not depend on where batches end (rebuild, replay).
      oldLines.resolve(w, t);
      // The lines are kept as deleted at this event's time (their balances' keys are on them: the event names none).
      w.delete(AccountingEntryLine, t(AccountingEntryLine), { accountingEntryId: d.entryId }, { deletedAt: event.recordedAt });
      deleteEntryDocuments(w, t, d.entryId);
      w.delete(AccountingEntry, t(AccountingEntry), { id: d.entryId });
      // Numbers stay gap-free: the entries after the deleted one move down by one.
      w.sql(`UPDATE ${t(AccountingEntry)} SET number = number - 1 WHERE accounting_exercise_id = $1 AND number > $2`, [d.exerciseId, d.number], {
        resource: AccountingEntry, table: t(AccountingEntry), fields: ['accountingExerciseId', 'number'],
      });
      return;
    }
    case 'AccountingPeriodClosed':
    case 'AccountingPeriodReopened': {
      const closed = e.type === 'AccountingPeriodClosed';
      // (By organisation too, so that no statement of one organisation's events can touch another's rows.)
      return w.update(AccountingEntry, t(AccountingEntry), { organisationId, accountingPeriodId: e.data.periodId }, { isClosed: closed, closeDate: closed ? e.data.at : null });
    }
  }
}

export const PROJECTIONS = projectionsOf(import.meta.url, [organisationsProjection, chartProjection, exercisesProjection, entriesProjection]);

/** Accounting: the organisation's chart, journal types and exercises, and each exercise's ledger of entries. */
import { LedgerAggregate, OrganisationAggregate } from '../commands/accounting/aggregates.ts';
import { ACCOUNTING_MUTATIONS, LOCK_DATES } from '../commands/accounting/mutations.ts';
import { LEDGER_EVENT_TYPES } from '../domain/accounting/ledger.ts';
import { ACCOUNTING_ENUMS } from '../domain/accounting/enums.ts';
import { MatchingType } from '../domain/accounting/entry-documents.ts';
import { ThirdPartyOrigin } from '../domain/accounting/ledger.ts';
import { ACCOUNTING_MESSAGES } from '../domain/accounting/errors.ts';
import { ORGANISATION_EVENT_TYPES } from '../domain/accounting/organisation.ts';
import { ACCOUNTING_EVENTS } from '../eventqueue/accounting/events.ts';
import { PROJECTIONS } from '../projections/accounting/projections.ts';
import { ACCOUNTING_RESOURCES } from '../projections/accounting/read-models.ts';
import { ENTRY_DOCUMENT_RESOURCES } from '../projections/accounting/entry-documents.ts';
import { defineModule } from './module.ts';

const BOOKKEEPERS = ['admin', 'accountant'] as const;

export const accounting = defineModule({
  name: 'accounting',
  aggregates: [
    { ...OrganisationAggregate, eventTypes: ORGANISATION_EVENT_TYPES },
    { ...LedgerAggregate, eventTypes: LEDGER_EVENT_TYPES },
  ],
  // RegisterType (invoice types' and tax treatments') is the taxes module's.
  enums: { ...ACCOUNTING_ENUMS, OriginType: ThirdPartyOrigin, MatchingType },
  mutations: ACCOUNTING_MUTATIONS,
  resources: [...ACCOUNTING_RESOURCES, ...ENTRY_DOCUMENT_RESOURCES],
  projections: PROJECTIONS,
  events: ACCOUNTING_EVENTS,
  errors: ACCOUNTING_MESSAGES,
  grants: {
    'active/accounting/accounting-account': BOOKKEEPERS,
    'active/accounting/accounting-entry': BOOKKEEPERS,
    'active/accounting/accounting-exercise': BOOKKEEPERS,
    // Journal types are shared settings in Sage's access model.
    'active/shared-settings': BOOKKEEPERS,
    // Locking the books (and moving the soft lock back) is an administrator's decision.
    [LOCK_DATES]: ['admin'],
  },
});

/** The accounting aggregates: the organisation (chart, journal types, exercises: one stream each) and an exercise's ledger. */
import { evolveLedger, initialLedgerState, type LedgerEvent, type LedgerState } from '../../domain/accounting/ledger.ts';
import { LEDGER_SNAPSHOT_VERSION, ledgerFromSnapshot, ledgerSnapshot } from '../../domain/accounting/ledger-snapshot.ts';
import { evolveOrganisation, initialOrganisationState, type OrganisationEvent, type OrganisationState } from '../../domain/accounting/organisation.ts';
import type { Aggregate } from '../aggregate-store.ts';

export const OrganisationAggregate: Aggregate<OrganisationState, OrganisationEvent> = {
  category: 'Organisation',
  initialState: initialOrganisationState,
  evolve: evolveOrganisation,
};
export const LedgerAggregate: Aggregate<LedgerState, LedgerEvent> = {
  category: 'Ledger',
  initialState: initialLedgerState,
  evolve: evolveLedger,
  // An exercise's stream holds every entry of the year: a big one is loaded from its snapshot.
  snapshot: { version: LEDGER_SNAPSHOT_VERSION, write: ledgerSnapshot, read: ledgerFromSnapshot },
};


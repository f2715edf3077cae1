/**
 * Lines stored before postings recorded their third party's id and kind (AccountingEntryPosted without thirdPartyId)
 * get them here, in the projection, at their place in the event order: the entries projection follows the parties'
 * Created and Deleted events into a hidden table of the organisation's live parties by the references a line could
 * name them with (the code; the id, which lines posted by ids then held as thirdCode), and a line naming a live
 * party is stored with that party's code, id and kind. A line whose text named no live party when it was posted
 * (free text before 1a37349, a party deleted since, a code taken only later) stays as it was, with no id or kind:
 * reads and filters then agree, and no line is completed with a party it did not name.
 *
 * The table is the entries projection's own (rebuilt with it; no other projection reads it): not among the module's
 * resources, with no query and no REST collection, so no GraphQL type or REST item derives from it.
 */
import { ThirdPartyOrigin, thirdReferenceKey } from '../../domain/accounting/ledger.ts';
import { derivedId, isUuid } from '../../domain/ids.ts';
import type { PartyKind } from '../../domain/parties/fields.ts';
import { PARTY_EVENT_TYPES, partyAction, type PartyRefData } from '../../domain/parties/parties.ts';
import type { RecordedEvent } from '../../eventstore/port.ts';
import type { TableOf } from '../engine/projection.ts';
import { f, type Resource } from '../engine/resource.ts';
import type { Writes } from '../engine/writes.ts';
import { AccountingEntryLine } from './read-models.ts';

export const ThirdPartyReference: Resource = {
  typeName: 'ThirdPartyReference',
  table: 'accounting_third_party_references',
  scope: 'organisation',
  // A deleted party's rows are found by its id.
  indexes: [['organisation_id', 'third_party_id']],
  fields: [
    f.uuid('id'), // derived from the organisation and the reference (referenceKey)
    f.uuid('thirdPartyId'),
    f.string('code'),
    f.enum('origin', 'OriginType', ThirdPartyOrigin),
  ],
};

/** The parties' events the entries projection follows (Updated cannot change a code, GdprApplied no clear field). */
export const PARTY_LIFE_EVENT_TYPES: readonly string[] = PARTY_EVENT_TYPES.filter((type) => ['Created', 'Deleted'].includes(partyAction(type)));
export const isPartyLifeEvent = (type: string): boolean => PARTY_LIFE_EVENT_TYPES.includes(type);

const ORIGIN: Record<PartyKind, ThirdPartyOrigin> = { customer: 'CUSTOMER', supplier: 'SUPPLIER', employee: 'EMPLOYEE' };

/** A reference's row id: by id for a UUID (any case: old lines held the id as given; ledger.ts thirdReferenceKey), by code otherwise (codes are at most 20 characters). */
function referenceKey(organisationId: string, reference: string): string {
  return derivedId(organisationId, isUuid(reference) ? 'third-party-by-id' : 'third-party-by-code', thirdReferenceKey(reference));
}

/** A party's Created or Deleted: its references become live, or are gone. */
export function applyPartyLife(event: RecordedEvent, w: Writes, t: TableOf): void {
  const organisationId = event.metadata.organisationId as string;
  const { partyId, kind, code } = event.data as unknown as PartyRefData;
  const table = t(ThirdPartyReference);
  if (partyAction(event.type) === 'Deleted') return w.delete(ThirdPartyReference, table, { organisationId, thirdPartyId: partyId });
  const party = { organisationId, thirdPartyId: partyId, code, origin: ORIGIN[kind] };
  w.insert(ThirdPartyReference, table, { ...party, id: referenceKey(organisationId, code) });
  w.insert(ThirdPartyReference, table, { ...party, id: referenceKey(organisationId, partyId) });
}

/**
 * Old lines of a run of postings with no party event between them (the table stands still over the run), resolved
 * in one statement when the run ends: before the next party event, or at the end of the events applied together.
 */
export class OldLineReferences {
  private lineIds: string[] = [];
  private keys: string[] = [];

  /** A posted line without a recorded party id, naming something. */
  add(organisationId: string, lineId: string, reference: string): void {
    this.lineIds.push(lineId);
    this.keys.push(referenceKey(organisationId, reference));
  }

  /**
   * Each line by its primary key and each reference by its own, both built early in a rebuild (the lookups): the
   * cost is that of the lines resolved, whatever the tables hold, where a join by the entry's id left the planner
   * free to read the whole lines table (a shadow table's statistics say little) and the references unindexed.
   */
  resolve(w: Writes, t: TableOf): void {
    if (this.lineIds.length === 0) return;
    const lines = t(AccountingEntryLine);
    const references = t(ThirdPartyReference);
    // The lines get a party they had none of: they enter the balances by party (balances.ts).
    w.fill(
      `UPDATE ${lines} l SET third_code = r.code, third_party_id = r.third_party_id, third_party_origin = r.origin
       FROM unnest($1::uuid[], $2::uuid[]) AS x(line_id, reference_id)
       JOIN ${references} r ON r.id = x.reference_id
       WHERE l.id = x.line_id AND l.organisation_id = r.organisation_id AND l.third_party_id IS NULL`,
      [this.lineIds, this.keys],
      [
        { resource: AccountingEntryLine, table: lines, fields: ['id'] },
        { resource: ThirdPartyReference, table: references, fields: ['id'] },
      ],
      { resource: AccountingEntryLine, table: lines, alias: 'l', field: 'thirdPartyId', sets: ['thirdCode', 'thirdPartyId', 'thirdPartyOrigin'] },
    );
    this.lineIds = [];
    this.keys = [];
  }
}

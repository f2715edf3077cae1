/**
 * Which party events reach trigger queues (customer, supplier, employee: created, updated, deleted,
 * erased), and their public data. A party event's personal part is sealed with the party's key: the
 * queue keeps it sealed, and a consumer reads it merged into the clear fields, addresses and contacts
 * while the key exists, and nothing of it once the party is erased (applyGdpr* destroys the key).
 */
import type { PartyEvent } from '../../domain/parties/parties.ts';
import type { PartyKind, PartyPersonal } from '../../domain/parties/fields.ts';
import { personalNow } from '../../domain/parties/party-upcasters.ts';
import type { EventCatalog, QueuedSealed, SealedPart } from '../event-catalog.ts';

type Item = Record<string, any>;

/** Each clear item with its personal part (by its id) merged in. */
const merged = (items: Item[] | null, idField: string, personal: Record<string, object> | undefined) =>
  items === null ? null : items.map((item) => ({ ...item, ...personal?.[item[idField]] }));

const PARTY_PERSONAL: SealedPart<PartyPersonal> = {
  subjectOf: (d) => d.partyId,
  field: 'personal',
  publicData(d, sealedPersonal) {
    // Opened as stored: older events hold older values (party-upcasters.ts).
    const personal = sealedPersonal && personalNow(sealedPersonal);
    const { personal: _sealed, ...clear } = d;
    const out: Record<string, unknown> = { ...clear };
    if ('fields' in clear) out.fields = { ...clear.fields, ...personal?.fields };
    if ('changes' in clear) out.changes = { ...clear.changes, ...personal?.fields };
    if ('addresses' in clear) out.addresses = merged(clear.addresses, 'addressId', personal?.addresses);
    if ('contacts' in clear) out.contacts = merged(clear.contacts, 'contactId', personal?.contacts);
    return out;
  },
};

/** Every event of a party kind names its object the kind; erasure is its own action, so consumers can erase their copies. */
const party = (kind: PartyKind, action: string): QueuedSealed => ({
  describe: (d) => ({ object: kind, event: action, key: d.partyId, id: d.code }),
  personal: PARTY_PERSONAL,
});

export const PARTY_EVENTS: EventCatalog<PartyEvent['type']> = {
  CustomerCreated: party('customer', 'after.create'),
  CustomerUpdated: party('customer', 'after.update'),
  CustomerDeleted: party('customer', 'after.delete'),
  CustomerGdprApplied: party('customer', 'after.applyGdpr'),
  SupplierCreated: party('supplier', 'after.create'),
  SupplierUpdated: party('supplier', 'after.update'),
  SupplierDeleted: party('supplier', 'after.delete'),
  SupplierGdprApplied: party('supplier', 'after.applyGdpr'),
  EmployeeCreated: party('employee', 'after.create'),
  EmployeeUpdated: party('employee', 'after.update'),
  EmployeeDeleted: party('employee', 'after.delete'),
  EmployeeGdprApplied: party('employee', 'after.applyGdpr'),
};

/**
 * Projection of the Parties events into the party read models. Personal parts are decrypted in
 * prepare(); an erased subject (key destroyed) projects exactly as the erasure event leaves a live
 * row: display name "Anonymised", other personal fields null, addresses keep their country and flags,
 * contacts keep their flags and job area, e-mails, phones and social media are gone. So a rebuild or
 * replay after erasure equals the live read models, and shows no personal value.
 */
import {
  ADDRESS_PERSONAL_FIELDS, CONTACT_PERSONAL_FIELDS, DISPLAY_NAME_FIELD, ERASED_NAME, PERSONAL_FIELDS,
  type AddressClear, type ContactClear, type PartyKind, type PartyPersonal,
} from '../../domain/parties/fields.ts';
import { ERASED_STATUS } from '../../domain/parties/enums.ts';
import { personalNow } from '../../domain/parties/party-upcasters.ts';
import { PARTY_EVENT_TYPES, partyAction, type PartyCreatedData, type PartyRefData, type PartyUpdatedData } from '../../domain/parties/parties.ts';
import type { PaymentTermLine } from '../../domain/settings/payment-terms.ts';
import { COUNTRIES, referenceId } from '../../domain/reference/countries.ts';
import type { RecordedEvent } from '../../eventstore/port.ts';
import { PersonalData } from './personal-data.ts';
import { projectionsOf, type Projection, type TableOf } from '../engine/projection.ts';
import { PARTY_RESOURCES, PARTY_TABLES } from './read-models.ts';
import type { Writes } from '../engine/writes.ts';

// Opened personal parts read with Sage's values (a stored one may hold older ones: party-upcasters.ts).
const personalData = new PersonalData<PartyPersonal>((e) => e.data.partyId as string, personalNow);
const COUNTRY_NAMES = new Map(COUNTRIES.map((c) => [c.isoCodeAlpha2, c.name]));
const nulls = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, null]));

/** The party's personal columns: from the decrypted part, or anonymised. */
function personalColumns(kind: PartyKind, personal: PartyPersonal | null, onlyGiven = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of PERSONAL_FIELDS[kind]) {
    if (personal && onlyGiven && !(name in personal.fields)) continue;
    out[name] = personal ? personal.fields[name] ?? null : name === DISPLAY_NAME_FIELD[kind] ? ERASED_NAME : null;
  }
  return out;
}

interface Ctx {
  w: Writes;
  t: TableOf;
  kind: PartyKind;
  organisationId: string;
  partyId: string;
  at: string;
}

function insertAddresses(c: Ctx, addresses: AddressClear[], personal: PartyPersonal | null): void {
  const r = PARTY_TABLES[c.kind].address;
  addresses.forEach((a, position) => {
    const iso = a.countryIsoCodeAlpha2;
    c.w.insert(r, c.t(r), {
      ...a, ...nulls(ADDRESS_PERSONAL_FIELDS), ...personal?.addresses[a.addressId], organisationId: c.organisationId, id: a.addressId, partyId: c.partyId, position,
      countryId: iso ? referenceId('country', iso) : null, countryName: iso ? COUNTRY_NAMES.get(iso) ?? null : null, creationDate: c.at, modificationDate: c.at,
    });
  });
}

function insertContacts(c: Ctx, contacts: ContactClear[], personal: PartyPersonal | null): void {
  const { contact: r, parts } = PARTY_TABLES[c.kind];
  const base = { organisationId: c.organisationId, partyId: c.partyId, creationDate: c.at, modificationDate: c.at };
  contacts.forEach((x, position) => {
    const p = personal?.contacts[x.contactId];
    c.w.insert(r, c.t(r), { ...x, ...nulls(CONTACT_PERSONAL_FIELDS), ...(p && { courtesy: p.courtesy, name: p.name, surname: p.surname, jobName: p.jobName }), ...base, id: x.contactId, position });
    p?.emails.forEach((e, i) => c.w.insert(parts.email, c.t(parts.email), { ...e, ...base, id: e.emailId, contactId: x.contactId, position: i }));
    p?.phones.forEach((e, i) => c.w.insert(parts.phone, c.t(parts.phone), { ...e, ...base, id: e.phoneId, contactId: x.contactId, position: i }));
    p?.socialMedias.forEach((e, i) => c.w.insert(parts.socialMedia, c.t(parts.socialMedia), { ...e, ...base, id: e.socialMediaId, contactId: x.contactId, position: i }));
  });
}

function insertTerms(c: Ctx, lines: PaymentTermLine[]): void {
  const r = PARTY_TABLES[c.kind].terms;
  if (!r) return;
  for (const l of lines) {
    c.w.insert(r, c.t(r), { ...l, organisationId: c.organisationId, id: l.lineId, partyId: c.partyId, payDaysList: l.payDays.join(','), creationDate: c.at, modificationDate: c.at });
  }
}

function deleteContacts(c: Ctx): void {
  const { contact, parts } = PARTY_TABLES[c.kind];
  for (const r of [parts.email, parts.phone, parts.socialMedia, contact]) c.w.delete(r, c.t(r), { partyId: c.partyId });
}

function applyEvent(event: RecordedEvent, w: Writes, t: TableOf): void {
  const d = event.data as unknown as PartyRefData;
  const c: Ctx = { w, t, kind: d.kind, organisationId: event.metadata.organisationId as string, partyId: d.partyId, at: d.at };
  const tables = PARTY_TABLES[d.kind];
  const personal = personalData.of(event);
  switch (partyAction(event.type)) {
    case 'Created': {
      const e = event.data as unknown as PartyCreatedData<unknown>;
      w.insert(tables.party, t(tables.party), {
        ...e.fields, ...personalColumns(c.kind, personal), organisationId: c.organisationId, id: e.partyId, code: e.code,
        gdprApplied: false, gdprAppliedDate: null, creationDate: e.at, modificationDate: e.at,
      });
      insertAddresses(c, e.addresses, personal);
      insertContacts(c, e.contacts, personal);
      insertTerms(c, e.paymentTermLines);
      return;
    }
    case 'Updated': {
      const e = event.data as unknown as PartyUpdatedData<unknown>;
      // Without a key (erased) personal changes are unreadable: the row stays anonymised.
      w.update(tables.party, t(tables.party), { id: e.partyId }, { ...e.changes, ...(personal ? personalColumns(c.kind, personal, true) : {}), modificationDate: e.at });
      if (e.addresses) {
        w.delete(tables.address, t(tables.address), { partyId: e.partyId });
        insertAddresses(c, e.addresses, personal);
      }
      if (e.contacts) {
        deleteContacts(c);
        insertContacts(c, e.contacts, personal);
      }
      if (e.paymentTermLines && tables.terms) {
        w.delete(tables.terms, t(tables.terms), { partyId: e.partyId });
        insertTerms(c, e.paymentTermLines);
      }
      return;
    }
    case 'Deleted': {
      deleteContacts(c);
      w.delete(tables.address, t(tables.address), { partyId: d.partyId });
      if (tables.terms) w.delete(tables.terms, t(tables.terms), { partyId: d.partyId });
      w.delete(tables.party, t(tables.party), { id: d.partyId });
      return;
    }
    case 'GdprApplied': {
      // The same end state as projecting the party's events without its key (see the file comment).
      w.update(tables.party, t(tables.party), { id: d.partyId }, {
        ...personalColumns(c.kind, null), status: ERASED_STATUS, gdprApplied: true, gdprAppliedDate: d.at, modificationDate: d.at,
      });
      w.update(tables.address, t(tables.address), { partyId: d.partyId }, { ...nulls(ADDRESS_PERSONAL_FIELDS), modificationDate: d.at });
      const { contact, parts } = tables;
      for (const r of [parts.email, parts.phone, parts.socialMedia]) w.delete(r, t(r), { partyId: d.partyId });
      w.update(contact, t(contact), { partyId: d.partyId }, { ...nulls(CONTACT_PERSONAL_FIELDS), modificationDate: d.at });
      return;
    }
  }
}

export const partiesProjection: Projection = {
  name: 'parties',
  // 1: Sage's enum values (issue 17), GDPR_APPLIED the status of an erased party, payment term lines in Sage's values.
  revision: 1,
  resources: PARTY_RESOURCES,
  eventTypes: PARTY_EVENT_TYPES,
  prepare: (events, client) => personalData.prepare(events, client),
  apply: applyEvent,
};

export const PROJECTIONS = projectionsOf(import.meta.url, [partiesProjection]);

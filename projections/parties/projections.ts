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
import { STATUS_AFTER_DISABLED } from '../../domain/parties/standing.ts';
import { PARTY_EVENT_TYPES, partyAction, type PartyCreatedData, type PartyRefData, type PartyUpdatedData } from '../../domain/parties/parties.ts';
import type { PaymentTermLine } from '../../domain/settings/payment-terms.ts';
import { COUNTRIES, referenceId } from '../../domain/reference/countries.ts';
import type { RecordedEvent } from '../../eventstore/port.ts';
import { PersonalData } from './personal-data.ts';
import { writeItemRows } from './item-rows.ts';
import { projectionsOf, type Projection, type TableOf } from '../engine/projection.ts';
import { columnOf, type Resource } from '../engine/resource.ts';
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

type Row = Record<string, unknown>;

function addressRows(c: Ctx, addresses: AddressClear[], personal: PartyPersonal | null): Row[] {
  return addresses.map((a, position) => {
    const iso = a.countryIsoCodeAlpha2;
    return {
      ...a, ...nulls(ADDRESS_PERSONAL_FIELDS), ...personal?.addresses[a.addressId], organisationId: c.organisationId, id: a.addressId, partyId: c.partyId, position,
      countryId: iso ? referenceId('country', iso) : null, countryName: iso ? COUNTRY_NAMES.get(iso) ?? null : null, creationDate: c.at, modificationDate: c.at,
    };
  });
}

/** Rows of the contacts and of their e-mails, phones and social media, by table. */
function contactRows(c: Ctx, contacts: ContactClear[], personal: PartyPersonal | null): Map<Resource, Row[]> {
  const { contact: r, parts } = PARTY_TABLES[c.kind];
  const base = { organisationId: c.organisationId, partyId: c.partyId, creationDate: c.at, modificationDate: c.at };
  const rows = new Map<Resource, Row[]>([[r, []], [parts.email, []], [parts.phone, []], [parts.socialMedia, []]]);
  contacts.forEach((x, position) => {
    const p = personal?.contacts[x.contactId];
    rows.get(r)!.push({ ...x, ...nulls(CONTACT_PERSONAL_FIELDS), ...(p && { courtesy: p.courtesy, name: p.name, surname: p.surname, jobName: p.jobName }), ...base, id: x.contactId, position });
    p?.emails.forEach((e, i) => rows.get(parts.email)!.push({ ...e, ...base, id: e.emailId, contactId: x.contactId, position: i }));
    p?.phones.forEach((e, i) => rows.get(parts.phone)!.push({ ...e, ...base, id: e.phoneId, contactId: x.contactId, position: i }));
    p?.socialMedias.forEach((e, i) => rows.get(parts.socialMedia)!.push({ ...e, ...base, id: e.socialMediaId, contactId: x.contactId, position: i }));
  });
  return rows;
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

/**
 * A version 1 event that disabled or enabled a party alone (or a disabled erased party): its status
 * follows where standing.ts says it moves (an erased party's GDPR_APPLIED stays; a legacy null moves as NONE).
 */
function statusFollowsDisabled(c: Ctx, disabled: boolean): void {
  const r = PARTY_TABLES[c.kind].party;
  const table = c.t(r);
  const { from, to } = STATUS_AFTER_DISABLED[`${disabled}`];
  const [id, status] = [columnOf(r, 'id'), columnOf(r, 'status')];
  c.w.sql(`UPDATE ${table} SET ${status} = $1 WHERE ${id} = $2 AND COALESCE(${status}, 'NONE') = ANY($3::text[])`, [to, c.partyId, from], { resource: r, table, fields: ['id'] });
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
      for (const row of addressRows(c, e.addresses, personal)) w.insert(tables.address, t(tables.address), row);
      for (const [r, rows] of contactRows(c, e.contacts, personal)) for (const row of rows) w.insert(r, t(r), row);
      insertTerms(c, e.paymentTermLines);
      return;
    }
    case 'Updated': {
      const e = event.data as unknown as PartyUpdatedData<unknown>;
      // Without a key (erased) personal changes are unreadable: the row stays anonymised.
      // hasVatNumber is the deciders' clear fact beside the sealed number, no column of the read model.
      const { hasVatNumber: _decidersOnly, ...changes } = e.changes;
      w.update(tables.party, t(tables.party), { id: e.partyId }, { ...changes, ...(personal ? personalColumns(c.kind, personal, true) : {}), modificationDate: e.at });
      if (e.changes.status === undefined && typeof e.changes.disabled === 'boolean') statusFollowsDisabled(c, e.changes.disabled);
      // Items keep their rows (ids are stable across updates): item-rows.ts.
      if (e.addresses) writeItemRows(w, tables.address, t(tables.address), e.partyId, addressRows(c, e.addresses, personal));
      if (e.contacts) for (const [r, rows] of contactRows(c, e.contacts, personal)) writeItemRows(w, r, t(r), e.partyId, rows);
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
  // 2: list items keep their rows and creationDate across updates (item-rows.ts); status and disabled one fact (standing.ts).
  revision: 2,
  resources: PARTY_RESOURCES,
  eventTypes: PARTY_EVENT_TYPES,
  prepare: (events, client) => personalData.prepare(events, client),
  apply: applyEvent,
};

export const PROJECTIONS = projectionsOf(import.meta.url, [partiesProjection]);

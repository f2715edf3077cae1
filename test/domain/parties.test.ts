/**
 * The Parties and SharedSettings deciders without I/O: generated codes, uniqueness across kinds,
 * reference counting of shared settings through updates and deletions, erasure rules, the ledger's
 * third-party usage, and the library-backed checks' normal forms.
 */
import t from 'tap';
import { PARTY_UPCASTERS, personalNow } from '../../domain/parties/party-upcasters.ts';
import { Errors } from '../../domain/errors.ts';
import { PartyErrors } from '../../domain/parties/errors.ts';
import { decideLedger, evolveLedger, initialLedgerState } from '../../domain/accounting/ledger.ts';
import type { PartyKind, PartyPersonal } from '../../domain/parties/fields.ts';
import { decideParties, evolveParties, initialPartiesState, type PartiesState, type PartyCommand, type PartyEvent } from '../../domain/parties/parties.ts';
import type { PartyInput } from '../../domain/parties/party-body.ts';
import { decideSettings, evolveSettings, initialSettingsState, type SettingsCommand, type SettingsState } from '../../domain/settings/settings.ts';
import { SettingsErrors } from '../../domain/settings/errors.ts';
import { checkIban, checkPhone, checkVatNumber } from '../../domain/parties/validation.ts';
import { NOW, accountIdByCode, executeOrganisation, createExerciseCommand, id, organisationState, refuses } from './builders.ts';

const organisation = organisationState('ES');

function world() {
  const parties: PartiesState = initialPartiesState();
  const settings: SettingsState = initialSettingsState();
  const used = new Set<string>();
  const facts = { organisation, settings, usedByEntries: (c: string) => used.has(c) };
  const run = (command: PartyCommand): PartyEvent<PartyPersonal>[] => {
    const events = decideParties(command, parties, facts);
    for (const e of events) evolveParties(parties, e);
    return events;
  };
  const setting = (command: SettingsCommand) => decideSettings(command, settings, organisation).forEach((e) => evolveSettings(settings, e));
  return { parties, settings, used, facts, run, setting };
}

const input = (over: Partial<PartyInput> = {}): PartyInput => ({ fields: {}, personal: { socialName: 'X' }, addresses: null, contacts: null, paymentTermLines: null, ...over });
const create = (kind: PartyKind, code: string | null = null, over: Partial<PartyInput> = {}, partyId = id()): PartyCommand => ({ type: 'CreateParty', kind, partyId, code, input: input(over), now: NOW });

t.test('generated codes: one sequence per kind, skipping codes users chose', async (t) => {
  const w = world();
  const code = (kind: PartyKind, given: string | null = null) => (w.run(create(kind, given))[0].data as { code: string }).code;
  t.equal(code('customer'), 'C00001');
  t.equal(code('customer', 'C00002'), 'C00002', 'a user may choose a code of the generated form');
  t.equal(code('customer'), 'C00003', 'the sequence steps over it');
  t.equal(code('supplier'), 'S00001');
  t.equal(code('employee'), 'E00001');
  refuses(t, () => w.run(create('supplier', 'C00001')), PartyErrors.partyCodeAlreadyExists, 'codes are unique across kinds');
  refuses(t, () => w.run(create('customer', 'bad code!')), Errors.invalidInput);
});

t.test('shared settings are reference-counted through create, update and delete', async (t) => {
  const w = world();
  const [retail, export_] = [id(), id()];
  w.setting({ type: 'CreateBusinessArea', businessAreaId: retail, name: 'Retail', now: NOW });
  w.setting({ type: 'CreateBusinessArea', businessAreaId: export_, name: 'Export', now: NOW });
  const partyId = id();
  w.run(create('customer', null, { fields: { businessAreaId: retail } }, partyId));
  t.equal(w.parties.usage.get(retail), 1);
  w.run({ type: 'UpdateParty', kind: 'customer', partyId, input: input({ personal: {}, fields: { businessAreaId: export_ } }), now: NOW });
  t.same([w.parties.usage.get(retail), w.parties.usage.get(export_)], [undefined, 1], 'moved to the other area');
  w.run({ type: 'UpdateParty', kind: 'customer', partyId, input: input({ personal: {}, fields: { disabled: true } }), now: NOW });
  t.equal(w.parties.usage.get(export_), 1, 'an update that does not name the area keeps it');
  refuses(t, () => decideSettings({ type: 'DeleteBusinessArea', businessAreaId: export_, usedByParties: w.parties.usage.has(export_), now: NOW }, w.settings, organisation), SettingsErrors.settingInUse);
  w.run({ type: 'DeleteParty', kind: 'customer', partyId, now: NOW });
  t.equal(w.parties.usage.size, 0, 'deleting the party releases its references');
});

t.test('disabling stamps disabledDate once; erasure forbids personal changes only', async (t) => {
  const w = world();
  const partyId = id();
  w.run(create('customer', null, {}, partyId));
  const later = '2026-02-01T00:00:00.000Z';
  const disable = w.run({ type: 'UpdateParty', kind: 'customer', partyId, input: input({ personal: {}, fields: { disabled: true } }), now: later });
  t.match(disable[0].data, { changes: { disabled: true, disabledDate: later }, personal: null });
  w.run({ type: 'ApplyGdpr', kind: 'customer', partyId, now: NOW });
  refuses(t, () => w.run({ type: 'UpdateParty', kind: 'customer', partyId, input: input({ personal: { comments: 'x' } }), now: NOW }), PartyErrors.partyGdprApplied);
  refuses(t, () => w.run({ type: 'UpdateParty', kind: 'customer', partyId, input: input({ personal: {}, addresses: [] }), now: NOW }), PartyErrors.partyGdprApplied, 'addresses are personal too');
  refuses(t, () => w.run({ type: 'ApplyGdpr', kind: 'customer', partyId, now: NOW }), PartyErrors.partyGdprApplied);
  t.ok(w.run({ type: 'UpdateParty', kind: 'customer', partyId, input: input({ personal: {}, fields: { disabled: false } }), now: NOW }).length === 1, 'clear changes still go');
  refuses(t, () => w.run({ type: 'UpdateParty', kind: 'customer', partyId, input: input({ personal: {}, fields: { status: 'ENABLED' } }), now: NOW }), PartyErrors.partyGdprApplied, 'GDPR_APPLIED stays its status');
  refuses(t, () => w.run({ type: 'ApplyGdpr', kind: 'employee', partyId, now: NOW }), PartyErrors.partyNotFound, 'the kind must match');
});

t.test('a party named by the books is not deleted', async (t) => {
  const w = world();
  const partyId = id();
  w.run(create('customer', 'K1', {}, partyId));
  w.used.add('K1');
  refuses(t, () => w.run({ type: 'DeleteParty', kind: 'customer', partyId, now: NOW }), PartyErrors.partyInUse);
  w.used.clear();
  w.used.add(partyId);
  refuses(t, () => w.run({ type: 'DeleteParty', kind: 'customer', partyId, now: NOW }), PartyErrors.partyInUse, 'named by id (entries posted by ids)');
  w.used.clear();
  w.run({ type: 'DeleteParty', kind: 'customer', partyId, now: NOW });
  refuses(t, () => w.run({ type: 'UpdateParty', kind: 'customer', partyId, input: input(), now: NOW }), PartyErrors.partyNotFound, 'a deleted party is gone');
  t.equal(w.run({ type: 'ApplyGdpr', kind: 'customer', partyId, now: NOW })[0].type, 'CustomerGdprApplied', 'but can still be erased');
  refuses(t, () => w.run({ type: 'ApplyGdpr', kind: 'customer', partyId, now: NOW }), PartyErrors.partyGdprApplied);
});

t.test("the ledger counts live lines' third-party codes", async (t) => {
  const org = organisationState('ES');
  const exerciseId = id();
  executeOrganisation(org, createExerciseCommand('2026-01-01', '2026-12-31', exerciseId));
  const ledger = initialLedgerState();
  const entryId = id();
  const line = (code: string, debit: string | null, credit: string | null, third: string | null) => ({ subAccountId: accountIdByCode(org, code), thirdCode: third, description: null, debitAmount: debit, creditAmount: credit });
  const post = decideLedger({ type: 'PostAccountingEntry', entryId, lineIds: [id(), id()], date: '2026-03-01', documentDate: null, documentNumber: null, description: null, journalTypeId: [...org.journalTypes.keys()][0], lines: [line('5720000', '10', null, 'C00001'), line('7000000', null, '10', null)], sourceType: 'PUBLIC_API', now: NOW }, ledger, org.exercises.get(exerciseId)!, org, (code) => (code === 'C00001' ? { id: id(), code, origin: 'CUSTOMER' } : undefined));
  post.forEach((e) => evolveLedger(ledger, e));
  t.equal(ledger.thirdCodeUsage.get('C00001'), 1);
  decideLedger({ type: 'DeleteAccountingEntry', entryId, now: NOW }, ledger, org.exercises.get(exerciseId)!, org).forEach((e) => evolveLedger(ledger, e));
  t.equal(ledger.thirdCodeUsage.size, 0);
});

t.test('checks give normal forms', async (t) => {
  t.equal(checkVatNumber('094259216', 'GR', 'vat'), 'EL094259216', 'Greece uses the EL prefix');
  t.equal(checkVatNumber('es b-1234567.4', 'ES', 'vat'), 'ESB12345674');
  t.equal(checkIban('fr14 2004 1010 0505 0001 3m02 606', 'iban'), 'FR1420041010050500013M02606');
  t.equal(checkPhone('020 7946 0958', 'GB', 'phone'), '+442079460958');
  refuses(t, () => checkVatNumber('123', 'DE', 'vat'), PartyErrors.invalidVatNumber);
});

t.test("events stored before Sage's values read with them: the clear part upcast, the sealed part where it is opened", async (t) => {
  const created = PARTY_UPCASTERS.find((u) => u.type === 'CustomerCreated')!;
  t.match(created.upcast({ fields: { customerType: 'SELF_EMPLOYED', status: 'PROSPECT', documentLanguage: 'IT', disabled: false } }).fields, {
    customerType: 'INDIVIDUAL', status: 'NONE', documentLanguage: null, disabled: false,
  });
  const updated = PARTY_UPCASTERS.find((u) => u.type === 'EmployeeUpdated')!;
  t.same(updated.upcast({ changes: { status: 'ON_LEAVE' }, at: NOW }).changes, { status: 'ENABLED', disabled: false, disabledDate: null });
  t.same(updated.upcast({ changes: { status: 'DISABLED' }, at: NOW }).changes, { status: 'DISABLED', disabled: true, disabledDate: NOW }, 'current values stay');
  const contact = { courtesy: 'MRS', name: 'A', surname: null, jobName: null, emails: [{ emailId: 'e', emailAddress: 'a@b.c', usage: 'INVOICING', isDefault: true }], phones: [{ phoneId: 'p', number: '+34', type: 'OTHER', isDefault: false }], socialMedias: [] };
  const opened = personalNow({ fields: {}, addresses: {}, contacts: { c: contact as never } });
  t.match(opened.contacts.c, { courtesy: 'MISS', emails: [{ usage: 'INVOICES' }], phones: [{ type: 'NOT_SET' }] });
});

t.test('status and disabled are one fact: setting either sets both, old events read so', async (t) => {
  const w = world();
  const changes = (command: PartyCommand) => (w.run(command)[0].data as { changes: Record<string, unknown> }).changes;
  const standing = (partyId: string) => { const p = w.parties.parties.get(partyId)!; return { status: p.status, disabled: p.disabled }; };
  const update = (partyId: string, fields: Record<string, unknown>): PartyCommand => ({ type: 'UpdateParty', kind: 'customer', partyId, input: input({ fields: fields as never, personal: {} }), now: NOW });
  const a = id();
  t.match(w.run(create('customer', null, { fields: { disabled: true } }, a))[0].data, { fields: { status: 'DISABLED', disabled: true, disabledDate: NOW } });
  t.match(w.run(update(a, { status: 'ENABLED' }))[0].data, { changes: { status: 'ENABLED', disabled: false, disabledDate: null } });
  t.match(w.run(update(a, { disabled: true }))[0].data, { changes: { status: 'DISABLED', disabled: true, disabledDate: NOW } });
  t.match(w.run(update(a, { disabled: false }))[0].data, { changes: { status: 'ENABLED', disabled: false, disabledDate: null } });
  t.match(w.run(update(a, { status: 'DISABLED' }))[0].data, { changes: { status: 'DISABLED', disabled: true, disabledDate: NOW } });
  t.match(w.run(update(a, { status: 'NONE' }))[0].data, { changes: { status: 'NONE', disabled: false } });
  t.same(standing(a), { status: 'NONE', disabled: false });
  t.notOk('status' in changes(update(a, { disabled: false })), 'enabling a party with no standing leaves it NONE');
  refuses(t, () => w.run(update(a, { status: 'ENABLED', disabled: true })), Errors.invalidInput, 'contradicting values refused');
  w.run({ type: 'ApplyGdpr', kind: 'customer', partyId: a, now: NOW });
  const erased = changes(update(a, { disabled: true }));
  t.same(erased, { disabled: true, disabledDate: NOW }, 'an erased party is disabled; GDPR_APPLIED stays');
  t.same(standing(a), { status: 'GDPR_APPLIED', disabled: true });

  // Version 1: BLOCKED (now DISABLED) was not disabled; a party enabled alone leaves DISABLED.
  const created = PARTY_UPCASTERS.find((u) => u.type === 'CustomerCreated')!;
  const updated = PARTY_UPCASTERS.find((u) => u.type === 'CustomerUpdated')!;
  const b = id();
  const old = created.upcast({ partyId: b, kind: 'customer', code: 'C00777', fields: { status: 'BLOCKED', disabled: false, customerType: 'COMPANY' }, addresses: [], contacts: [], paymentTermLines: [], personal: null, at: NOW });
  t.match(old.fields, { status: 'DISABLED', disabled: true, disabledDate: NOW });
  evolveParties(w.parties, { type: 'CustomerCreated', data: old } as never);
  t.same(standing(b), { status: 'DISABLED', disabled: true });
  t.same(updated.upcast({ changes: { status: 'ACTIVE', disabled: true }, at: NOW }).changes, { status: 'DISABLED', disabled: true, disabledDate: NOW }, 'disabled wins');
  evolveParties(w.parties, { type: 'CustomerUpdated', data: updated.upcast({ partyId: b, kind: 'customer', code: 'C00777', changes: { disabled: false }, addresses: null, contacts: null, paymentTermLines: null, personal: null, at: NOW }) } as never);
  t.same(standing(b), { status: 'ENABLED', disabled: false }, 'enabled alone: the status follows');
});

t.test('a legacy null status stands as NONE: disabling moves it, and null in old changes says nothing (review of issue 17)', async (t) => {
  const w = world();
  const standing = (partyId: string) => { const p = w.parties.parties.get(partyId)!; return { status: p.status, disabled: p.disabled }; };
  const created = PARTY_UPCASTERS.find((u) => u.type === 'CustomerCreated')!;
  const updated = PARTY_UPCASTERS.find((u) => u.type === 'CustomerUpdated')!;
  const old = (partyId: string, code: string, fields: Record<string, unknown>) => created.upcast({ partyId, kind: 'customer', code, fields: { customerType: 'COMPANY', ...fields }, addresses: [], contacts: [], paymentTermLines: [], personal: null, at: NOW });
  const oldUpdate = (partyId: string, code: string, changes: Record<string, unknown>) => updated.upcast({ partyId, kind: 'customer', code, changes, addresses: null, contacts: null, paymentTermLines: null, personal: null, at: NOW });

  t.match(old(id(), 'C00901', { status: null, disabled: true }).fields, { status: 'DISABLED', disabled: true, disabledDate: NOW }, 'created disabled with a null status: DISABLED');
  t.same(oldUpdate(id(), 'C00902', { status: null, disabled: true }).changes, { disabled: true }, 'a null status in old changes is absent');

  const a = id();
  evolveParties(w.parties, { type: 'CustomerCreated', data: old(a, 'C00903', { status: null, disabled: false }) } as never);
  t.same(standing(a), { status: null, disabled: false });
  evolveParties(w.parties, { type: 'CustomerUpdated', data: oldUpdate(a, 'C00903', { status: null, disabled: true }) } as never);
  t.same(standing(a), { status: 'DISABLED', disabled: true }, 'disabled alone (the null said nothing): the status follows as from NONE');

  const b = id();
  evolveParties(w.parties, { type: 'CustomerCreated', data: old(b, 'C00904', { status: null, disabled: false }) } as never);
  const command: PartyCommand = { type: 'UpdateParty', kind: 'customer', partyId: b, input: input({ fields: { disabled: true } as never, personal: {} }), now: NOW };
  t.match(w.run(command)[0].data, { changes: { status: 'DISABLED', disabled: true, disabledDate: NOW } }, 'a new update disabling it moves the status too');
});

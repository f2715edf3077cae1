/**
 * Parties in Sage's own words (issue 17): enum values as Sage clients send them (pm-050's "EMPTY"), old
 * values refused, and updates of addresses, contacts and a contact's e-mails, phones and social media
 * item by item with `id` and `requestedAction` (pm-052, pm-101, hp-006), read back after each.
 */
import t from 'tap';
import { runningService } from './helpers/service.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';

const api = await runningService(t);

const { ok } = graphqlAnswers(api);
const codeOf = (r: any) => r.errors?.[0]?.extensions?.code;

const READ = `query($id: UUID!) { customers(first: 1, where: { id: { eq: $id } }) { nodes { code socialName status customerType documentLanguage
  addresses { id firstLine city isMainAddress } contacts { id name surname courtesy emails { id emailAddress usage isDefault } phones { id number type isDefault } socialMedias { id link } } } } }`;
const read = async (id: string) => (await ok(READ, { id })).customers.nodes[0];
const UPDATE = `mutation($values: CustomerUpdateGLDtoInput!) { updateCustomer(input: $values) { id } }`;

// pm-050: a customer with Sage's EMPTY phone type and e-mail usage.
const created = (await ok(`mutation($values: CustomerCreateGLDtoInput!) { createCustomer(input: $values) { id code } }`, { values: {
  socialName: 'Ferretería Sage', customerType: 'BUSINESS', documentLanguage: 'SPANISH', countryAcronym: 'ES',
  addresses: [{ firstLine: 'Calle Mayor 1', city: 'Madrid', countryIsoCodeAlpha2: 'ES', isMainAddress: true }, { firstLine: 'Polígono 7', city: 'Getafe' }],
  contacts: [{ isDefault: true, courtesy: 'MR', name: 'Juan', surname: 'Pérez',
    phones: [{ isDefault: true, number: '+34612345678', type: 'EMPTY' }],
    emails: [{ emailAddress: 'juan@example.org', usage: 'EMPTY', isDefault: true }, { emailAddress: 'pagos@example.org', usage: 'PAYMENTS' }],
    socialMedias: [{ name: 'web', link: 'https://example.org' }] }],
} })).createCustomer;
const id = created.id;

t.test('createCustomer takes Sage values (pm-050) and answers them', async (t) => {
  const c = await read(id);
  t.match(c, { status: 'ENABLED', customerType: 'BUSINESS', documentLanguage: 'SPANISH' });
  t.match(c.contacts[0], { courtesy: 'MR', phones: [{ type: 'EMPTY' }], emails: [{ usage: 'EMPTY' }, { usage: 'PAYMENTS' }] });
});

t.test('values of the versions before Sage are refused with a code', async (t) => {
  const before = await read(id);
  const n = await api.eventCount();
  for (const values of [{ customerType: 'COMPANY' }, { status: 'ACTIVE' }, { documentLanguage: 'ES' }]) {
    const r = await api.gql(UPDATE, { values: { id, ...values } });
    t.equal(codeOf(r), 'GRAPHQL_VALIDATION_FAILED', `${JSON.stringify(values)} refused`);
    t.match(r.errors[0].message, Object.values(values)[0], 'naming the value');
  }
  t.equal(await api.eventCount(), n, 'nothing appended');
  t.same(await read(id), before, 'nothing changed');
  const r = await api.gql(UPDATE, { values: { id, status: 'GDPR_APPLIED' } });
  t.equal(codeOf(r), 'global.businessErrors.statusByErasure', 'GDPR_APPLIED comes only from an erasure');
  t.equal((await read(id)).status, 'ENABLED');
});

t.test('pm-052: an address modified by id changes only the fields sent', async (t) => {
  const before = await read(id);
  const [main, second] = before.addresses;
  await ok(`mutation { updateCustomer(input: { id: "${id}", addresses: [{ id: "${main.id}", requestedAction: MODIFY, firstLine: "Calle Mayor 2" }] }) { id } }`);
  const after = await read(id);
  t.same(after.addresses, [{ ...main, firstLine: 'Calle Mayor 2' }, second], 'same ids, the other address and fields as they were');
  t.same(after.contacts, before.contacts, 'contacts untouched');
});

t.test('an id with no action modifies; no id creates (appended); DELETE with a full copy removes', async (t) => {
  const [main, second] = (await read(id)).addresses;
  await ok(UPDATE, { values: { id, addresses: [{ id: second.id, city: 'Leganés' }, { firstLine: 'Nueva 3', city: 'Toledo' }] } });
  let addresses = (await read(id)).addresses;
  t.match(addresses, [main, { id: second.id, city: 'Leganés', firstLine: 'Polígono 7' }, { firstLine: 'Nueva 3', city: 'Toledo' }]);
  t.notOk([main.id, second.id].includes(addresses[2].id), 'the new address has its own id');
  await ok(UPDATE, { values: { id, addresses: [{ ...addresses[1], requestedAction: 'DELETE' }] } });
  addresses = (await read(id)).addresses;
  t.same(addresses.map((a: any) => a.id), [main.id, addresses[1].id]);
  t.equal(addresses[1].firstLine, 'Nueva 3');
});

t.test('hp-006: root requestedAction and code, contacts and their e-mails each with id and requestedAction', async (t) => {
  const before = await read(id);
  const contact = before.contacts[0];
  const [first, payments] = contact.emails;
  await ok(UPDATE, { values: { id, code: created.code, requestedAction: 'MODIFY', socialName: 'Ferretería Sage S.L.', contacts: [{
    id: contact.id, requestedAction: 'MODIFY', surname: 'Pérez Gil',
    emails: [
      { id: first.id, requestedAction: 'MODIFY', emailAddress: 'juan.perez@example.org', usage: 'INVOICES' },
      { ...payments, requestedAction: 'DELETE' },
      { requestedAction: 'CREATE', emailAddress: 'otro@example.org', usage: 'OTHERS' },
    ],
  }] } });
  const party = await read(id);
  t.equal(party.socialName, 'Ferretería Sage S.L.', 'the root field changed');
  const after = party.contacts[0];
  t.match(after, { id: contact.id, name: 'Juan', surname: 'Pérez Gil', courtesy: 'MR', phones: contact.phones, socialMedias: contact.socialMedias });
  t.match(after.emails, [{ id: first.id, emailAddress: 'juan.perez@example.org', usage: 'INVOICES' }, { emailAddress: 'otro@example.org', usage: 'OTHERS' }]);
  t.equal(after.emails.length, 2);
});

t.test('replaceAll replaces the lists it names, at the root and inside a contact', async (t) => {
  const before = await read(id);
  const contact = before.contacts[0];
  await ok(UPDATE, { values: { id, contacts: [{ id: contact.id, replaceAll: ['PHONES'], phones: [{ number: '+34911234567', type: 'LANDLINE' }] }] } });
  let after = await read(id);
  t.match(after.contacts[0].phones, [{ number: '+34911234567', type: 'LANDLINE' }]);
  t.equal(after.contacts[0].phones.length, 1, 'the old phone is gone');
  t.same(after.contacts[0].emails, contact.emails, 'e-mails not named in replaceAll stay');
  await ok(UPDATE, { values: { id, replaceAll: ['ADDRESSES'], addresses: [{ id: before.addresses[1].id, city: 'Cuenca' }, { firstLine: 'Única 1' }] } });
  after = await read(id);
  t.match(after.addresses, [{ id: before.addresses[1].id, city: 'Cuenca', firstLine: 'Nueva 3' }, { firstLine: 'Única 1' }]);
  t.equal(after.addresses.length, 2);
  t.same(after.contacts, (await read(id)).contacts);
});

t.test('a MODIFY or DELETE of an item the party does not have is refused and changes nothing', async (t) => {
  const before = await read(id);
  const other = '00000000-0000-4000-8000-000000000001';
  const cases = [
    { addresses: [{ id: other, requestedAction: 'MODIFY', firstLine: 'X' }] },
    { addresses: [{ id: other, requestedAction: 'DELETE' }] },
    { addresses: [{ id: other, firstLine: 'X' }] },
    { contacts: [{ id: before.contacts[0].id, emails: [{ id: other, emailAddress: 'x@example.org' }] }] },
    { addresses: [{ firstLine: 'ok' }], contacts: [{ id: other, name: 'X' }] },
  ];
  for (const values of cases) {
    const r = await api.gql(UPDATE, { values: { id, ...values } });
    t.equal(r.errors?.[0]?.extensions?.code !== undefined, true, JSON.stringify(values));
    t.match(r.errors?.[0]?.message, other, 'names the id');
  }
  const noId = await api.gql(UPDATE, { values: { id, addresses: [{ requestedAction: 'DELETE' }] } });
  t.ok(codeOf(noId), 'DELETE without an id refused');
  const badCode = await api.gql(UPDATE, { values: { id, code: 'C99999', socialName: 'Otro' } });
  t.ok(codeOf(badCode), 'another code refused');
  t.same(await read(id), before, 'nothing changed');
});

t.test('employees and suppliers take the same item updates', async (t) => {
  const e = (await ok(`mutation { createEmployee(input: { name: "Ana", addresses: [{ firstLine: "Luna 3", city: "Sevilla" }] }) { id } }`)).createEmployee;
  const [address] = (await ok(`query($id: UUID!) { employees(where: { id: { eq: $id } }) { nodes { status addresses { id city } } } }`, { id: e.id })).employees.nodes[0].addresses;
  await ok(`mutation { updateEmployee(input: { id: "${e.id}", addresses: [{ id: "${address.id}", requestedAction: MODIFY, city: "Cádiz" }] }) { id } }`);
  const after = (await ok(`query($id: UUID!) { employees(where: { id: { eq: $id } }) { nodes { status addresses { id city } } } }`, { id: e.id })).employees.nodes[0];
  t.same(after, { status: 'ENABLED', addresses: [{ id: address.id, city: 'Cádiz' }] });
  const s = (await ok(`mutation { createSupplier(input: { socialName: "Maderas", supplierType: BUSINESS, contacts: [{ name: "Eva" }] }) { id } }`)).createSupplier;
  const [contact] = (await ok(`query($id: UUID!) { suppliers(where: { id: { eq: $id } }) { nodes { contacts { id } } } }`, { id: s.id })).suppliers.nodes[0].contacts;
  const refused = await api.gql(`mutation { updateSupplier(input: { id: "${s.id}", contacts: [{ id: "${e.id}", requestedAction: DELETE }] }) { id } }`);
  t.ok(codeOf(refused), 'another party\'s id is not the supplier\'s');
  await ok(`mutation { updateSupplier(input: { id: "${s.id}", contacts: [{ id: "${contact.id}", requestedAction: DELETE }] }) { id } }`);
  t.same((await ok(`query($id: UUID!) { suppliers(where: { id: { eq: $id } }) { nodes { contacts { id } } } }`, { id: s.id })).suppliers.nodes[0].contacts, []);
});

t.test('an erased customer reads GDPR_APPLIED', async (t) => {
  const c = (await ok(`mutation { createCustomer(input: { socialName: "Borrado" }) { id } }`)).createCustomer;
  await ok(`mutation { applyGdprCustomer(input: { id: "${c.id}" }) { id } }`);
  t.equal((await read(c.id)).status, 'GDPR_APPLIED');
  t.ok(codeOf(await api.gql(UPDATE, { values: { id: c.id, status: 'ENABLED' } })), 'no other status after erasure');
});

t.test("an e-mail's or phone's MODIFY clears a field sent null; a default deleted is gone, one moved leaves its sibling", async (t) => {
  const { id } = (await ok(`mutation { createCustomer(input: { socialName: "Otra", addresses: [{ firstLine: "P", isMainAddress: true }, { firstLine: "Q" }],
    contacts: [{ name: "Eva", emails: [{ emailAddress: "eva@example.org", usage: INVOICES, isDefault: true }, { emailAddress: "eva2@example.org" }],
      phones: [{ number: "+34612345678", type: MOBILE, isDefault: true }] }] }) { id } }`)).createCustomer;
  const contact = (await read(id)).contacts[0];
  const [email] = contact.emails;
  const [phone] = contact.phones;
  await ok(UPDATE, { values: { id, contacts: [{ id: contact.id, emails: [{ id: email.id, usage: null }], phones: [{ id: phone.id, type: null }] }] } });
  let after = (await read(id)).contacts[0];
  t.same(after.emails[0], { ...email, usage: null }, 'e-mail usage cleared, the rest as it was');
  t.same(after.phones[0], { ...phone, type: null }, 'phone type cleared, the rest as it was');

  t.same(after.emails.map((e: any) => e.isDefault), [true, false]);
  await ok(UPDATE, { values: { id, contacts: [{ id: contact.id, emails: [{ id: after.emails[1].id, isDefault: true }] }] } });
  after = (await read(id)).contacts[0];
  t.same(after.emails.map((e: any) => e.isDefault), [false, true], 'the default moved to the other e-mail');
  await ok(UPDATE, { values: { id, contacts: [{ id: contact.id, emails: [{ id: after.emails[1].id, requestedAction: 'DELETE' }], phones: [{ id: phone.id, requestedAction: 'DELETE' }] }] } });
  after = (await read(id)).contacts[0];
  t.same(after.emails.map((e: any) => [e.id, e.isDefault]), [[email.id, false]], 'the default deleted: no other e-mail becomes it');
  t.same(after.phones, [], 'the default phone deleted');
  const main = (await read(id)).addresses.find((a: any) => a.isMainAddress);
  await ok(UPDATE, { values: { id, addresses: [{ id: main.id, requestedAction: 'DELETE' }] } });
  t.same((await read(id)).addresses.filter((a: any) => a.isMainAddress), [], 'the main address deleted: none is main');
});

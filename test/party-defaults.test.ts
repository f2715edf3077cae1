/**
 * Updates as Sage clients send them: a new or modified item made the default takes the flag from its
 * siblings (one request, no demotion of the old default needed; two items claiming it are still
 * refused), and null for a field with a default (status, type, discount) leaves it as it is.
 */
import t from 'tap';
import { runningService } from './helpers/service.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';

const api = await runningService(t);

const { ok } = graphqlAnswers(api);
const codeOf = (r: any) => r.errors?.[0]?.extensions?.code;
const READ = `query($id: UUID!) { customers(first: 1, where: { id: { eq: $id } }) { nodes { status customerType discount disabled
  addresses { id firstLine isMainAddress isDeliveryAddress isDefaultDeliveryAddress }
  contacts { id name isDefault isDefaultCustomer emails { id emailAddress isDefault } phones { id number isDefault } } } } }`;
const read = async (id: string) => (await ok(READ, { id })).customers.nodes[0];
const UPDATE = `mutation($values: CustomerUpdateGLDtoInput!) { updateCustomer(input: $values) { id } }`;
const create = async (values: object) => (await ok(`mutation($values: CustomerCreateGLDtoInput!) { createCustomer(input: $values) { id } }`, { values })).createCustomer.id;
const flags = (list: any[], flag: string) => list.map((x) => x[flag]);

t.test('an item created or modified as the default takes the flag from its siblings', async (t) => {
  const id = await create({ socialName: 'Predeterminados', discount: '5',
    addresses: [{ firstLine: 'A', isMainAddress: true, isDeliveryAddress: true, isDefaultDeliveryAddress: true }, { firstLine: 'B', isDeliveryAddress: true }],
    contacts: [{ name: 'C1', isDefault: true, isDefaultCustomer: true, emails: [{ emailAddress: 'a@example.org', isDefault: true }], phones: [{ number: '+34612345678', isDefault: true }] }] });
  let c = await read(id);
  await ok(UPDATE, { values: { id, addresses: [{ requestedAction: 'CREATE', firstLine: 'N', isMainAddress: true }] } });
  c = await read(id);
  t.same(flags(c.addresses, 'isMainAddress'), [false, false, true], 'a new main address: the old one is no longer main');
  await ok(UPDATE, { values: { id, addresses: [{ id: c.addresses[1].id, isMainAddress: true, isDefaultDeliveryAddress: true }] } });
  c = await read(id);
  t.same(flags(c.addresses, 'isMainAddress'), [false, true, false], 'B modified to main');
  t.same(flags(c.addresses, 'isDefaultDeliveryAddress'), [false, true, false], 'and to default delivery address');
  const [contact] = c.contacts;
  await ok(UPDATE, { values: { id, contacts: [{ id: contact.id, emails: [{ emailAddress: 'n@example.org', isDefault: true }], phones: [{ number: '+34699999999', isDefault: true }] }] } });
  c = await read(id);
  t.same(flags(c.contacts[0].emails, 'isDefault'), [false, true], 'a new default e-mail');
  t.same(flags(c.contacts[0].phones, 'isDefault'), [false, true], 'a new default phone');
  await ok(UPDATE, { values: { id, contacts: [{ name: 'C2', isDefault: true, isDefaultCustomer: true }] } });
  c = await read(id);
  t.same(c.contacts.map((x: any) => [x.name, x.isDefault, x.isDefaultCustomer]), [['C1', false, false], ['C2', true, true]], 'a new default contact');
  t.same(flags(c.contacts[0].emails, 'isDefault'), [false, true], "the old default contact's own lists are untouched");

  const n = await api.eventCount();
  for (const values of [
    { addresses: [{ firstLine: 'X', isMainAddress: true }, { firstLine: 'Y', isMainAddress: true }] },
    { addresses: [{ id: c.addresses[0].id, isMainAddress: true }, { firstLine: 'Y', isMainAddress: true }] },
    { contacts: [{ id: c.contacts[0].id, emails: [{ emailAddress: 'x@example.org', isDefault: true }, { id: c.contacts[0].emails[0].id, isDefault: true }] }] },
  ]) t.equal(codeOf(await api.gql(UPDATE, { values: { id, ...values } })), 'global.businessErrors.moreThanOneDefault', `two claims refused: ${JSON.stringify(values)}`);
  t.equal(await api.eventCount(), n, 'nothing appended');
  t.same(await read(id), c, 'nothing changed');

  // One item sent twice claiming the flag is one claim: it takes the flag (review of issue 17).
  const a = c.addresses[0].id; // B is the main address
  await ok(UPDATE, { values: { id, addresses: [{ id: a, isMainAddress: true }, { id: a, firstLine: 'A2', isMainAddress: true }] } });
  const after = await read(id);
  t.same(after.addresses.map((x: any) => [x.firstLine, x.isMainAddress]), [['A2', true], ['B', false], ['N', false]], 'the same address twice as main takes it from B');
});

t.test('null leaves a field with a default as it is (as for flags)', async (t) => {
  const id = await create({ socialName: 'Nulos', customerType: 'INDIVIDUAL', status: 'NONE', discount: '7.5' });
  await ok(UPDATE, { values: { id, status: null, customerType: null, discount: null, disabled: null } });
  t.match(await read(id), { status: 'NONE', customerType: 'INDIVIDUAL', discount: 7.5, disabled: false });
  const made = await create({ socialName: 'Nulos 2', status: null, customerType: null, discount: null });
  t.match(await read(made), { status: 'ENABLED', customerType: 'BUSINESS', discount: 0 }, 'a create with null takes the defaults');
  const s = (await ok(`mutation { createSupplier(input: { socialName: "Prov", supplierType: INDIVIDUAL }) { id } }`)).createSupplier;
  await ok(`mutation { updateSupplier(input: { id: "${s.id}", supplierType: null, status: null }) { id } }`);
  t.same((await ok(`query($id: UUID!) { suppliers(where: { id: { eq: $id } }) { nodes { status supplierType } } }`, { id: s.id })).suppliers.nodes[0],
    { status: 'ENABLED', supplierType: 'INDIVIDUAL' });
});

t.test('status and disabled are one fact: setting either sets both', async (t) => {
  const STANDING = `query($id: UUID!) { customers(first: 1, where: { id: { eq: $id } }) { nodes { status disabled disabledDate } } }`;
  const standing = async (id: string) => (await ok(STANDING, { id })).customers.nodes[0];
  const id = await create({ socialName: 'Estado' });
  await ok(UPDATE, { values: { id, disabled: true } });
  const disabled = await standing(id);
  t.match(disabled, { status: 'DISABLED', disabled: true, disabledDate: String });
  await ok(UPDATE, { values: { id, status: 'ENABLED' } });
  t.same(await standing(id), { status: 'ENABLED', disabled: false, disabledDate: null });
  await ok(UPDATE, { values: { id, status: 'DISABLED' } });
  t.match(await standing(id), { status: 'DISABLED', disabled: true, disabledDate: String });
  await ok(UPDATE, { values: { id, disabled: false } });
  t.same(await standing(id), { status: 'ENABLED', disabled: false, disabledDate: null });
  const n = await api.eventCount();
  t.equal(codeOf(await api.gql(UPDATE, { values: { id, status: 'ENABLED', disabled: true } })), 'global.businessErrors.invalidInput', 'contradicting values refused');
  t.equal(await api.eventCount(), n, 'nothing appended');
  t.match(await standing(await create({ socialName: 'Desactivado', disabled: true })), { status: 'DISABLED', disabled: true, disabledDate: String }, 'on create too');

  await ok(`mutation { applyGdprCustomer(input: { id: "${id}" }) { id } }`);
  await ok(UPDATE, { values: { id, disabled: true } });
  t.match(await standing(id), { status: 'GDPR_APPLIED', disabled: true }, 'an erased party keeps GDPR_APPLIED');
});

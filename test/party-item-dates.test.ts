/**
 * A party's list items keep their creation date across updates (their ids are stable), and their
 * modification date moves only when their own content changed; a rebuild of the parties' read models
 * gives the same dates as the live projection.
 */
import t from 'tap';
import { partiesProjection } from '../projections/parties/projections.ts';
import { checksum, rebuildProjection } from '../projections/engine/rebuild.ts';
import { runningService } from './helpers/service.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';

const api = await runningService(t);
const { db, store } = api.service;

const { ok } = graphqlAnswers(api);
const dated = 'id creationDate modificationDate';
const READ = `query($id: UUID!) { customers(first: 1, where: { id: { eq: $id } }) { nodes {
  addresses { ${dated} firstLine } contacts { ${dated} name emails { ${dated} emailAddress } phones { ${dated} } } } } }`;
const read = async (id: string) => (await ok(READ, { id })).customers.nodes[0];
const UPDATE = `mutation($values: CustomerUpdateGLDtoInput!) { updateCustomer(input: $values) { id } }`;
const pause = () => new Promise((r) => setTimeout(r, 20));
const dates = (x: { creationDate: string; modificationDate: string }) => [x.creationDate, x.modificationDate];

const { id } = (await ok(`mutation { createCustomer(input: { socialName: "Fechas", addresses: [{ firstLine: "A" }, { firstLine: "B" }],
  contacts: [{ name: "C1", emails: [{ emailAddress: "a@example.org" }, { emailAddress: "b@example.org" }], phones: [{ number: "+34612345678" }] }, { name: "C2" }] }) { id } }`)).createCustomer;

t.test('items not changed by an update keep both dates; changed ones keep their creation date', async (t) => {
  const before = await read(id);
  await pause();
  const [a, b] = before.addresses;
  const [c1, c2] = before.contacts;
  await ok(UPDATE, { values: { id, addresses: [{ id: b.id, firstLine: 'B2' }, { firstLine: 'N' }],
    contacts: [{ id: c1.id, emails: [{ id: c1.emails[1].id, emailAddress: 'b2@example.org' }] }] } });
  const after = await read(id);
  t.same(dates(after.addresses[0]), dates(a), 'untouched address: same dates');
  t.equal(after.addresses[1].creationDate, b.creationDate, 'modified address keeps its creation date');
  t.ok(after.addresses[1].modificationDate > b.modificationDate, 'and its modification date moves');
  t.ok(after.addresses[2].creationDate > a.creationDate, 'the new address is dated now');
  t.same(dates(after.contacts[0]), dates(c1), 'a contact whose e-mail changed is itself unchanged');
  t.same(dates(after.contacts[1]), dates(c2), 'untouched contact: same dates');
  t.same(dates(after.contacts[0].emails[0]), dates(c1.emails[0]), 'untouched e-mail: same dates');
  t.equal(after.contacts[0].emails[1].creationDate, c1.emails[1].creationDate);
  t.ok(after.contacts[0].emails[1].modificationDate > c1.emails[1].modificationDate);
  t.same(dates(after.contacts[0].phones[0]), dates(c1.phones[0]), 'untouched phone: same dates');

  await pause();
  await ok(UPDATE, { values: { id, replaceAll: ['ADDRESSES'], addresses: [{ id: after.addresses[2].id }, { id: a.id }] } });
  const reordered = await read(id);
  t.same(reordered.addresses.map((x: any) => [x.id, ...dates(x)]), [after.addresses[2], after.addresses[0]].map((x: any) => [x.id, ...dates(x)]),
    'replaceAll keeps the dates of the items it keeps, in their new order; the one left out is gone');
});

t.test('a rebuild gives the dates the live projection gave', async (t) => {
  const live = await read(id);
  const tables = partiesProjection.resources.map((r) => r.table);
  const sums = await Promise.all(tables.map((table) => checksum(db.pool, table)));
  const rebuilt = await rebuildProjection(db.pool, store, partiesProjection);
  t.same(rebuilt.map((c) => [c.table, c.rows, c.checksum]), sums.map((c) => [c.table, c.rows, c.checksum]), 'the rebuilt tables equal the live ones');
  t.same(await read(id), live);
});

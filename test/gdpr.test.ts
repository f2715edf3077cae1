/**
 * The right to erasure with immutable events (crypto-shredding): personal fields are never in the
 * event store in clear; erasing a customer or employee destroys their key, anonymises the read models
 * and REST items, and survives a rebuild of every projection and a replay, with no personal value left
 * in any table of the database, the books unchanged and document numbers kept.
 */
import t from 'tap';
import { PROJECTIONS } from '../service/start.ts';
import { checksum, rebuildProjection } from '../projections/engine/rebuild.ts';
import { replayOrganisation } from '../projections/engine/replay.ts';
import { runningService } from './helpers/service.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';

const api = await runningService(t);
const { db, store } = api.service;
const year = new Date().getUTCFullYear();

const { ok } = graphqlAnswers(api);

const SECRETS = ['Zacarías Ordóñez', 'Zapatería Zacarías', '12345678Z', 'zacarias.ordonez@example.org', '+34612000111', 'Calle del Secreto 42', 'Berenguela Iturriaga', 'berenguela@example.org', 'Avenida Oculta 9', 'Teodomiro Quintanilla'];
const KEPT = 'Cliente de Control S.A.';

/** Every table of every schema (read models, replays, event store, keys...) whose text columns hold `needle`. */
async function tablesHolding(needle: string): Promise<string[]> {
  const { rows: columns } = await db.pool.query(
    `SELECT c.table_schema, c.table_name, c.column_name FROM information_schema.columns c
     JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE t.table_type = 'BASE TABLE' AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
       AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED')`,
  );
  const byTable = new Map<string, string[]>();
  for (const c of columns) byTable.set(`"${c.table_schema}"."${c.table_name}"`, [...(byTable.get(`"${c.table_schema}"."${c.table_name}"`) ?? []), `"${c.column_name}"`]);
  const found: string[] = [];
  for (const [table, cols] of byTable) {
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${cols.map((c) => `strpos(${c}::text, $1) > 0`).join(' OR ')}`, [needle]);
    if (rows[0].n > 0) found.push(table);
  }
  return found;
}

const trialBalance = async (schema = 'public') =>
  (await db.pool.query(`SELECT sub_account_id, sum(debit_amount) AS d, sum(credit_amount) AS c FROM ${schema}.accounting_entry_lines WHERE organisation_id = $1 GROUP BY 1 ORDER BY 1`, [api.organisationId])).rows;

const customer = (await ok(`mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { code id } }`, { v: {
  socialName: 'Zacarías Ordóñez', tradeName: 'Zapatería Zacarías', customerType: 'INDIVIDUAL', countryAcronym: 'ES', vatNumber: '12345678Z', documentId: '12345678Z',
  addresses: [{ name: 'Casa', firstLine: 'Calle del Secreto 42', city: 'Toledo', zipCode: '45001', countryIsoCodeAlpha2: 'ES', isMainAddress: true }],
  contacts: [{ name: 'Zacarías', surname: 'Ordóñez', isDefault: true, emails: [{ emailAddress: 'zacarias.ordonez@example.org' }], phones: [{ number: '612000111' }] }],
} })).createCustomer;
const control = (await ok(`mutation { createCustomer(input: { socialName: "${KEPT}" }) { id } }`)).createCustomer;
const employee = (await ok(`mutation($v: EmployeeCreateGLDtoInput!) { createEmployee(input: $v) { code id } }`, { v: {
  name: 'Berenguela Iturriaga', addresses: [{ firstLine: 'Avenida Oculta 9', countryIsoCodeAlpha2: 'ES' }], contacts: [{ name: 'Berenguela', emails: [{ emailAddress: 'berenguela@example.org' }] }],
} })).createEmployee;
const formerSupplier = (await ok(`mutation { createSupplier(input: { socialName: "Teodomiro Quintanilla" }) { id } }`)).createSupplier;
await ok(`mutation($id: UUID!) { deleteSupplier(input: { id: $id }) { id } }`, { id: formerSupplier.id });
const sale = (await ok(`mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id number } }`, { v: {
  date: `${year}-03-10`, journalTypeCode: 'VEN', documentNumber: 'F-2026-0042', description: 'Factura F-2026-0042',
  accountingEntryLines: [{ subAccountCode: '4300001', thirdCode: customer.code, debitAmount: '242.00' }, { subAccountCode: '7000000', creditAmount: '200.00' }, { subAccountCode: '4770000', creditAmount: '42.00' }],
} })).createAccountingEntryUsingCodes;
const booksBefore = await trialBalance();

t.test('personal fields are never in the event store in clear, yet the read models show them', async (t) => {
  const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM es_events WHERE strpos(data::text, $1) > 0`, ['Zacar']);
  t.equal(rows[0].n, 0, 'no event carries the name in clear');
  const sealed = await db.pool.query(`SELECT data FROM es_events WHERE event_type = 'CustomerCreated' AND data->>'partyId' = $1`, [customer.id]);
  t.equal(sealed.rows[0].data.personal.alg, 'A256GCM');
  t.equal(sealed.rows[0].data.code, customer.code, 'the code stays clear');
  const read = await ok(`query($id: UUID!) { customers(where: { id: { eq: $id } }) { nodes { socialName vatNumber } } }`, { id: customer.id });
  t.same(read.customers.nodes[0], { socialName: 'Zacarías Ordóñez', vatNumber: 'ES12345678Z' });
});

t.test('erasure anonymises the read models and REST, and the books stay as they were', async (t) => {
  const r = await ok(`mutation($v: CustomerApplyGdprGLDtoInput!) { applyGdprCustomer(input: $v) { id } }`, { v: { id: customer.id } });
  t.equal(r.applyGdprCustomer.id, customer.id);
  const c = (await ok(`query($id: UUID!) { customers(where: { id: { eq: $id } }) { nodes {
      code socialName tradeName vatNumber documentId gdprApplied gdprAppliedDate countryAcronym customerType
      addresses { name firstLine city zipCode countryIsoCodeAlpha2 isMainAddress } contacts { name surname isDefault emails { emailAddress } phones { number } }
    } } }`, { id: customer.id })).customers.nodes[0];
  t.match(c, { code: customer.code, socialName: 'Anonymised', tradeName: null, vatNumber: null, documentId: null, gdprApplied: true, countryAcronym: 'ES', customerType: 'INDIVIDUAL' });
  t.ok(c.gdprAppliedDate, 'gdprAppliedDate set');
  t.same(c.addresses, [{ name: null, firstLine: null, city: null, zipCode: null, countryIsoCodeAlpha2: 'ES', isMainAddress: true }]);
  t.same(c.contacts, [{ name: null, surname: null, isDefault: true, emails: [], phones: [] }]);
  const rest = await api.rest(`/customers/${customer.id}`);
  t.same([rest.body.displayed_as, rest.body.social_name, rest.body.vat_number, rest.body.gdpr_applied], [`${customer.code} Anonymised`, 'Anonymised', null, true]);
  const key = await db.pool.query(`SELECT key, destroyed_at FROM subject_keys WHERE subject_id = $1`, [customer.id]);
  t.same([key.rows[0].key, key.rows[0].destroyed_at !== null], [null, true], 'the key is destroyed');

  await ok(`mutation($v: EmployeeApplyGdprGLDtoInput!) { applyGdprEmployee(input: $v) { id } }`, { v: { id: employee.id } });
  const e = (await ok(`{ employees { nodes { code name gdprApplied contacts { emails { emailAddress } } } } }`)).employees.nodes[0];
  t.same(e, { code: employee.code, name: 'Anonymised', gdprApplied: true, contacts: [{ emails: [] }] });
  const deleted = await api.gql(`mutation($v: SupplierApplyGdprGLDtoInput!) { applyGdprSupplier(input: $v) { id } }`, { v: { id: formerSupplier.id } });
  t.equal(deleted.errors, undefined, 'a deleted supplier can still be erased (its events hold its sealed data)');

  t.same(await trialBalance(), booksBefore, 'the trial balance is unchanged');
  const entry = (await ok(`query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { number documentNumber accountingEntryLines { debitAmount accountingEntryThirdParty { code } } } } }`, { id: sale.id })).accountingEntries.nodes[0];
  t.same([entry.number, entry.documentNumber, entry.accountingEntryLines[0].debitAmount, entry.accountingEntryLines[0].accountingEntryThirdParty.code], [sale.number, 'F-2026-0042', '242.00', customer.code], 'amounts, numbers and the party code are kept');
});

t.test('an erased party never gets personal data back, but can still be managed', async (t) => {
  const before = await api.eventCount();
  const update = await api.gql(`mutation($v: CustomerUpdateGLDtoInput!) { updateCustomer(input: $v) { id } }`, { v: { id: customer.id, socialName: 'Zacarías again' } });
  t.equal(update.errors?.[0]?.extensions?.code, 'global.businessErrors.partyGdprApplied');
  const again = await api.gql(`mutation($v: CustomerApplyGdprGLDtoInput!) { applyGdprCustomer(input: $v) { id } }`, { v: { id: customer.id } });
  t.equal(again.errors?.[0]?.extensions?.code, 'global.businessErrors.partyGdprApplied');
  const del = await api.gql(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id: customer.id });
  t.equal(del.errors?.[0]?.extensions?.code, 'global.businessErrors.partyInUse', 'still named by the books');
  t.equal(await api.eventCount(), before, 'nothing appended');
  await ok(`mutation($v: CustomerUpdateGLDtoInput!) { updateCustomer(input: $v) { id } }`, { v: { id: customer.id, disabled: true } });
  const c = (await ok(`query($id: UUID!) { customers(where: { id: { eq: $id } }) { nodes { disabled socialName } } }`, { id: customer.id })).customers.nodes[0];
  t.same(c, { disabled: true, socialName: 'Anonymised' });
});

t.test('no personal value is left in any table; a rebuild of every projection and a replay keep it so', async (t) => {
  for (const secret of SECRETS) t.same(await tablesHolding(secret), [], `"${secret}" is nowhere`);
  t.ok((await tablesHolding(KEPT)).includes('"public"."customers"'), 'a customer not erased keeps its name (the search works)');
  t.ok((await tablesHolding('F-2026-0042')).includes('"public"."es_events"'), "the event store's JSON is searched too");

  const tables = PROJECTIONS.flatMap((p) => p.resources.map((r) => r.table));
  const live = await Promise.all(tables.map((table) => checksum(db.pool, table)));
  const rebuilt = [];
  for (const p of PROJECTIONS) rebuilt.push(...(await rebuildProjection(db.pool, store, p)));
  t.same(rebuilt.map((c) => [c.table, c.rows, c.checksum]), live.map((c) => [c.table, c.rows, c.checksum]), 'the rebuilt read models equal the live ones');
  const replay = await replayOrganisation(db.pool, store, PROJECTIONS, { organisationId: api.organisationId, asOf: new Date(Date.now() + 60_000) });
  for (const secret of SECRETS) t.same(await tablesHolding(secret), [], `"${secret}" is nowhere after the rebuild and the replay`);
  t.ok((await tablesHolding(KEPT)).includes(`"${replay.schema}"."customers"`), 'the replay decrypts those not erased');

  t.same(await trialBalance(), booksBefore, 'the rebuilt trial balance is unchanged');
  t.same(await trialBalance(replay.schema), booksBefore, 'so is the replayed one');
  const replayed = await db.pool.query(`SELECT social_name, gdpr_applied FROM ${replay.schema}.customers WHERE id = $1`, [customer.id]);
  t.same(replayed.rows[0], { social_name: 'Anonymised', gdpr_applied: true });
  const kept = await db.pool.query(`SELECT social_name FROM customers WHERE id = $1`, [control.id]);
  t.equal(kept.rows[0].social_name, KEPT);
});

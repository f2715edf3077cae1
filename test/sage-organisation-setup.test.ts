/**
 * Sage's exercise, reference, set-up and user operations (issue 17 items 2, 4, 5), written as Sage clients write
 * them (pm-083, pm-071/072, pm-076, pm-023/028, pm-070, s1-052), validated against the SDL and run: the
 * exercise in Sage's shape with its end derived, legislationCode on countries and document types, the
 * organisation's accounting set-up by its id, its members, the access check for a reader and an admin, and
 * another organisation seeing none of it.
 */
import { buildSchema, parse, validate } from 'graphql';
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { buildSdl } from '../api/graphql/sdl.ts';
import { AccountingErrors } from '../domain/accounting/errors.ts';
import { Errors } from '../domain/errors.ts';
import { derivedId } from '../domain/ids.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, daemon, identity, db } = api.service;
const schema = buildSchema(buildSdl());
const sage = (token: string, organisationId: string) => ({ Authorization: `Bearer ${token}`, 'x-api-key': 'k', 'X-OrganizationId': organisationId, 'X-TenantId': organisationId });
const admin = sage(api.token, api.organisationId);

await identity.createUser(api.organisationId, 'reader@example.com', 'reader-password-1', 'viewer');
const reader = sage((await identity.issueToken(api.organisationId, 'reader@example.com', api.clientId, 'readonly')).access_token, api.organisationId);
const neighbour = await commands.createOrganisation({}, { name: 'Voisin SARL', country: 'FR' });
await daemon.waitFor(neighbour.position);
await identity.createUser(neighbour.id, 'voisin@example.com', 'voisin-password-1', 'admin');
const theirs = sage((await identity.issueToken(neighbour.id, 'voisin@example.com', api.clientId, 'full_access')).access_token, neighbour.id);

const OPERATIONS = {
  createExercise: `mutation ($values: AccountingExerciseCreateGLDtoInput!) { createAccountingExercise(input: $values) { id } }`,
  exercises: `query ($id: UUID!) { accountingExercises(where: { id: { eq: $id } }) { edges { node { id exercise status startDate endDate description numberPeriods periods { startDate endDate } } } } }`,
  countries: `query ($first: Int!) { countries(first: $first, order: [{ isoCodeAlpha2: ASC }]) { edges { node { ...country } } } } fragment country on Country { id name isoCodeAlpha2 isoCodeAlpha3 isoNumber viesCode legislationCode }`,
  documentTypes: `{ documentTypes { edges { node { id code name legislationCode } } } }`,
  setup: `query ($id: ID!) { organizationAccountingSetupByOrgId(id: $id) { id organizationId subAccountingLength taxRegime annualAccountsModel defaultCustomersAccountId defaultSuppliersAccountId defaultBankAccountId defaultBankJournalTypeId defaultCashAccountId defaultCashJournalTypeId defaultInputVATAccountId defaultOutputVATAccountId defaultSaleProductsAccountId defaultProfitAccountCFId defaultLossAccountCFId defaultOpeningAccountCFId defaultOpeningJournalCFId defaultResultAccountCFId defaultCreditorsAccountCFId defaultDebtorsAccountCFId intracommunityAccountId foreignAccountId openItemsAutomaticAllocation defaultPayrollJournalTypeId defaultBankingAdjustmentsId defaultBankingTransactionsId defaultPayrollSessionId } }`,
  users: `{ users(where: { authenticationEmail: { contains: "@" } }, order: [{ fullName: ASC }]) { edges { node { ... on User { id fullName authenticationEmail applicationLanguageCode } } } } }`,
  accessCheck: `query userAccessPolicyCheck($actions: [String!]!) { userAccessPolicyCheck(actions: $actions) { action isAllowed } }`,
  codeModes: `query { thirdPartyCodeModeSettings { customerCodeIsManual supplierCodeIsManual employeeCodeIsManual } }`,
};

t.test('every operation validates against the SDL as written', async (t) => {
  for (const [name, op] of Object.entries(OPERATIONS)) t.same(validate(schema, parse(op)).map((e) => e.message), [], name);
});

t.test('pm-083: an exercise in Sage\'s shape ends after its number of monthly periods, with its label and description', async (t) => {
  const created = await api.gql(OPERATIONS.createExercise, { values: { exercise: 2023, description: 'Exercice 2023', startDate: '2023-01-01', numberPeriods: 12 } }, admin);
  t.equal(created.errors, undefined);
  const read = await api.gql(OPERATIONS.exercises, { id: created.data.createAccountingExercise.id }, admin);
  const [{ node }] = read.data.accountingExercises.edges;
  t.match(node, { exercise: 2023, description: 'Exercice 2023', status: 'OPEN', numberPeriods: 12 });
  t.equal(node.startDate.slice(0, 10), '2023-01-01');
  t.equal(node.endDate.slice(0, 10), '2023-12-31');
  t.equal(node.periods.length, 12);

  // Spanning two years, labelled by its closing year; both end date and periods, in agreement.
  const split = await api.gql(OPERATIONS.createExercise, { values: { exercise: 2022, description: 'FY 2021/22', startDate: '2021-07-01', endDate: '2022-06-30', numberPeriods: 12 } }, admin);
  t.equal(split.errors, undefined);
  const splitRead = (await api.gql(OPERATIONS.exercises, { id: split.data.createAccountingExercise.id }, admin)).data.accountingExercises.edges[0].node;
  t.match(splitRead, { exercise: 2022, numberPeriods: 12 });
  // Ours, without a label: the start date's year.
  const ours = await api.gql(OPERATIONS.createExercise, { values: { startDate: '2020-01-01', endDate: '2020-12-31' } }, admin);
  t.equal((await api.gql(OPERATIONS.exercises, { id: ours.data.createAccountingExercise.id }, admin)).data.accountingExercises.edges[0].node.exercise, 2020);
});

t.test('an exercise whose end date and number of periods disagree, or with neither, or a label outside it, is refused and changes nothing', async (t) => {
  const before = await api.eventCount();
  const disagree = await api.gql(OPERATIONS.createExercise, { values: { exercise: 2019, startDate: '2019-01-01', endDate: '2019-12-31', numberPeriods: 6 } }, admin);
  t.equal(disagree.errors?.[0]?.extensions?.code, AccountingErrors.exerciseEndDateDisagrees);
  t.match(disagree.errors[0].message, /2019-06-30/);
  const neither = await api.gql(OPERATIONS.createExercise, { values: { exercise: 2019, startDate: '2019-01-01' } }, admin);
  t.equal(neither.errors?.[0]?.extensions?.code, Errors.invalidInput);
  t.match(neither.errors[0].message, /numberPeriods/);
  const label = await api.gql(OPERATIONS.createExercise, { values: { exercise: 2030, startDate: '2019-01-01', numberPeriods: 12 } }, admin);
  t.equal(label.errors?.[0]?.extensions?.code, Errors.invalidInput);
  t.match(label.errors[0].message, /exercise/);
  const tooMany = await api.gql(OPERATIONS.createExercise, { values: { startDate: '2019-01-01', numberPeriods: 25 } }, admin);
  t.equal(tooMany.errors?.[0]?.extensions?.code, Errors.invalidInput);
  const pastYear9999 = await api.gql(OPERATIONS.createExercise, { values: { startDate: '9999-06-01', numberPeriods: 12 } }, admin);
  t.equal(pastYear9999.errors?.[0]?.extensions?.code, Errors.invalidInput, 'an end past year 9999 is refused');
  t.notMatch(pastYear9999.errors?.[0]?.message, /\+0\d|NaN|undefined|at most \./, 'with no malformed date in its message');
  t.match(pastYear9999.errors?.[0]?.message, /numberPeriods/);
  t.equal(await api.eventCount(), before);
});

t.test('an exercise event stored before the label was sent reads with its label, description and periods', async (t) => {
  // As 76e5ffb stored it: the label computed from the start, no description, the periods.
  const { rows: [stream] } = await db.pool.query(`SELECT stream_id FROM es_streams WHERE stream_id LIKE 'Organisation-%' AND stream_id LIKE $1`, [`%${api.organisationId}`]);
  const exerciseId = randomUUID();
  const periods = ['07', '08'].map((m, i) => ({ periodId: randomUUID(), month: i === 0 ? 'JULY' : 'AUGUST', startDate: `2018-${m}-01`, endDate: `2018-${m}-31` }));
  const data = { exerciseId, exercise: 2018, startDate: '2018-07-01', endDate: '2018-08-31', description: null, periods, at: '2018-06-01T00:00:00.000Z' };
  const { rows: [meta] } = await db.pool.query(`SELECT metadata FROM es_events WHERE event_type = 'AccountingExerciseCreated' LIMIT 1`);
  await db.pool.query(
    `WITH moved AS (UPDATE es_streams SET revision = revision + 1 WHERE stream_id = $1 RETURNING revision)
     INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata) SELECT $1, revision, $2, 'AccountingExerciseCreated', $3, $4 FROM moved`,
    [stream.stream_id, randomUUID(), JSON.stringify(data), JSON.stringify({ ...meta.metadata, causationId: randomUUID(), schemaVersion: 1 })],
  );
  let node;
  for (let tries = 0; tries < 200 && !node; tries++) {
    node = (await api.gql(OPERATIONS.exercises, { id: exerciseId }, admin)).data.accountingExercises.edges[0]?.node;
    if (!node) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.match(node, { exercise: 2018, description: null, numberPeriods: 2 });
  const org = await commands.organisation(api.organisationId);
  t.equal(org.exercises.get(exerciseId)?.endDate, '2018-08-31', 'the organisation folds it too');
});

t.test('legislationCode: a country\'s own legislation where we keep books, and the organisation\'s on its document types', async (t) => {
  const countries = await api.gql(OPERATIONS.countries, { first: 300 }, admin);
  t.equal(countries.errors, undefined);
  const byCode = new Map(countries.data.countries.edges.map((e: { node: { isoCodeAlpha2: string } }) => [e.node.isoCodeAlpha2, e.node]));
  t.match(byCode.get('ES'), { legislationCode: 'ES' });
  t.match(byCode.get('FR'), { legislationCode: 'FR' });
  t.match(byCode.get('DE'), { legislationCode: 'DE' });
  t.match(byCode.get('IT'), { legislationCode: null });
  const mine = await api.gql(OPERATIONS.documentTypes, {}, admin);
  t.ok(mine.data.documentTypes.edges.length > 0);
  t.ok(mine.data.documentTypes.edges.every((e: { node: { legislationCode: string } }) => e.node.legislationCode === 'ES'));
  const french = await api.gql(OPERATIONS.documentTypes, {}, theirs);
  t.ok(french.data.documentTypes.edges.every((e: { node: { legislationCode: string } }) => e.node.legislationCode === 'FR'));
});

t.test('organizationAccountingSetupByOrgId: the installed chart\'s accounts and the standard journals, by the organisation\'s id', async (t) => {
  const r = await api.gql(OPERATIONS.setup, { id: api.organisationId }, admin);
  t.equal(r.errors, undefined);
  const setup = r.data.organizationAccountingSetupByOrgId;
  const org = api.organisationId;
  t.match(setup, {
    organizationId: org, subAccountingLength: 7, taxRegime: 'UNDEFINED', annualAccountsModel: 'PYME',
    defaultCustomersAccountId: derivedId(org, 'account', '4300000'), defaultSuppliersAccountId: derivedId(org, 'account', '4000000'),
    defaultBankAccountId: derivedId(org, 'account', '5720000'), defaultCashAccountId: derivedId(org, 'account', '5700000'),
    defaultInputVATAccountId: derivedId(org, 'account', '4720000'), defaultOutputVATAccountId: derivedId(org, 'account', '4770000'),
    defaultSaleProductsAccountId: derivedId(org, 'account', '7000000'),
    // The sales accounts of intra-EU deliveries and exports (the sales posting's roles).
    intracommunityAccountId: derivedId(org, 'account', '7000001'), foreignAccountId: derivedId(org, 'account', '7000002'),
    defaultBankJournalTypeId: derivedId(org, 'journal-type', 'BAN'), defaultCashJournalTypeId: derivedId(org, 'journal-type', 'CAJ'),
    defaultOpeningJournalCFId: derivedId(org, 'journal-type', 'APE'),
    defaultPayrollJournalTypeId: null, defaultProfitAccountCFId: derivedId(org, 'account', '1290000'), defaultLossAccountCFId: derivedId(org, 'account', '1290000'), openItemsAutomaticAllocation: false,
  });
  const french = await api.gql(OPERATIONS.setup, { id: neighbour.id }, theirs);
  t.match(french.data.organizationAccountingSetupByOrgId, {
    subAccountingLength: 6, annualAccountsModel: 'UNDEFINED', defaultCustomersAccountId: derivedId(neighbour.id, 'account', '411000'),
    intracommunityAccountId: derivedId(neighbour.id, 'account', '707200'), foreignAccountId: derivedId(neighbour.id, 'account', '707300'),
    defaultPayrollJournalTypeId: derivedId(neighbour.id, 'journal-type', 'SAL'),
  }, 'the payroll journal the country installs');
  // A deactivated account or journal is no default; active again, it is.
  const ctx = { organisationId: api.organisationId };
  const cash = derivedId(org, 'account', '5700000');
  const bankJournal = derivedId(org, 'journal-type', 'BAN');
  await api.service.mutate.updateAccountingAccount(ctx, { id: cash, deactivated: true });
  await api.service.mutate.updateJournalType(ctx, { id: bankJournal, deactivated: true });
  const inactive = (await api.gql(OPERATIONS.setup, { id: api.organisationId }, admin)).data.organizationAccountingSetupByOrgId;
  t.same([inactive.defaultCashAccountId, inactive.defaultBankJournalTypeId], [null, null], 'deactivated ones are no defaults');
  await api.service.mutate.updateAccountingAccount(ctx, { id: cash, deactivated: false });
  await api.service.mutate.updateJournalType(ctx, { id: bankJournal, deactivated: false });
  const other = await api.gql(OPERATIONS.setup, { id: neighbour.id }, admin);
  t.equal(other.errors, undefined);
  t.equal(other.data.organizationAccountingSetupByOrgId, null, 'another organisation\'s id answers nothing, as organizationById');
  const junk = await api.gql(OPERATIONS.setup, { id: 'not-an-id' }, admin);
  t.equal(junk.errors?.[0]?.extensions?.code, 'INVALID_QUERY');
});

t.test('users: the organisation\'s members, and no one else\'s', async (t) => {
  const r = await api.gql(OPERATIONS.users, {}, admin);
  t.equal(r.errors, undefined);
  const emails = r.data.users.edges.map((e: { node: { authenticationEmail: string } }) => e.node.authenticationEmail).sort();
  t.same(emails, ['demo@example.com', 'reader@example.com']);
  t.ok(r.data.users.edges.every((e: { node: { id: string; fullName: null } }) => e.node.id && e.node.fullName === null));
  const french = await api.gql(OPERATIONS.users, {}, theirs);
  t.same(french.data.users.edges.map((e: { node: { authenticationEmail: string } }) => e.node.authenticationEmail), ['voisin@example.com']);
});

t.test('userAccessPolicyCheck answers as running the operations would: a reader may read, an admin write', async (t) => {
  const actions = ['createCustomer', 'createAccountingExercise', 'accountingAccounts', 'organizationById'];
  const forAdmin = await api.gql(OPERATIONS.accessCheck, { actions }, admin);
  t.same(forAdmin.data.userAccessPolicyCheck, actions.map((action) => ({ action, isAllowed: true })));
  const forReader = await api.gql(OPERATIONS.accessCheck, { actions }, reader);
  t.same(forReader.data.userAccessPolicyCheck.map((a: { isAllowed: boolean }) => a.isAllowed), [false, false, true, true]);
  const refused = await api.gql(`mutation { createCustomer(input: { socialName: "Denied" }) { id } }`, {}, reader);
  t.equal(refused.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHORIZED', 'and running it is refused');
  const unknown = await api.gql(OPERATIONS.accessCheck, { actions: ['xustomers', 'customers', 'userAccessPolicyCheck'] }, admin);
  t.equal(unknown.errors?.[0]?.extensions?.code, 'global.businessErrors.unknownActionNames');
  t.equal(unknown.errors[0].extensions.details, 'xustomers');
});

t.test("userAccessPolicyCheck answers every action Sage documents, as pm-070 sends them: not allowed while we do not serve it", async (t) => {
  const actions = [
    'customers', 'createCustomer', 'userAccessPolicyCheck', 'salesPromotions', 'salesDiscountLines', 'salesTariffLines', 'purchaseInvoiceLines',
    'createAccountingEntry', 'createOrganization', 'documentPdfPreviewSalesQuote', 'documentPdfEmailSalesInvoice', 'salesInvoices', 'postSalesInvoice',
  ];
  const r = await api.gql(OPERATIONS.accessCheck, { actions }, admin);
  t.equal(r.errors, undefined);
  const served = new Set(['customers', 'createCustomer', 'userAccessPolicyCheck', 'salesInvoices', 'postSalesInvoice']);
  t.same(r.data.userAccessPolicyCheck, actions.map((action) => ({ action, isAllowed: served.has(action) })));
  const mixed = await api.gql(OPERATIONS.accessCheck, { actions: ['salesPromotions', 'salesPromotionz'] }, admin);
  t.equal(mixed.errors?.[0]?.extensions?.details, 'salesPromotionz', 'a name of no one is still refused');
});

t.test('thirdPartyCodeModeSettings: codes are generated when none is sent, so none is manual', async (t) => {
  const r = await api.gql(OPERATIONS.codeModes, {}, admin);
  t.same(r.data.thirdPartyCodeModeSettings, { customerCodeIsManual: false, supplierCodeIsManual: false, employeeCodeIsManual: false });
});

t.test('each of these reads needs the organisation header and a token of it', async (t) => {
  const bearerOnly = { Authorization: admin.Authorization };
  for (const op of ['users', 'codeModes'] as const) {
    const r = await api.gql(OPERATIONS[op], {}, bearerOnly);
    t.equal(r.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHENTICATED', op);
  }
  // A token of one organisation with another's header is refused before any field.
  const crossed = await api.gql(OPERATIONS.users, {}, { ...admin, 'X-OrganizationId': neighbour.id });
  t.ok(crossed.errors?.length, 'refused');
  t.notOk(crossed.data?.users, 'no members shown');
});

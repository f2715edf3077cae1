/**
 * The roots a Sage client calls first, written as a Sage client writes them (fact sheet §1.1-1.3, §2): reads of
 * one object with `$id: ID!`, `organizations` without the organisation header, userProfile and the localized
 * enumerations and messages; and the headers Sage clients send beside ours (x-api-key, X-TenantId), tolerated.
 * Each operation is validated against our SDL, then run against the real service.
 */
import { buildSchema, parse, validate } from 'graphql';
import t from 'tap';
import { buildSdl } from '../api/graphql/sdl.ts';
import { masterCharts } from '../api/graphql/sage-roots.ts';
import { MESSAGES } from '../api/i18n.ts';
import { AccountingErrors } from '../domain/accounting/errors.ts';
import { JournalTypeType } from '../domain/accounting/enums.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, daemon, identity } = api.service;
const schema = buildSchema(buildSdl());
const neighbour = await commands.createOrganisation({}, { name: 'Neighbour Ltd', country: 'GB' });
await daemon.waitFor(neighbour.position);
// The demo user belongs to the neighbour too; the demo token still serves the demo organisation only.
await identity.createUser(neighbour.id, 'demo@example.com', 'another-password-1', 'admin');

const OPERATIONS = {
  organizations: `query organizations { organizations(first: 10, where: { status: { eq: READY }, onboardingCompleted: { eq: true } }, order: [{ socialName: ASC }]) { totalCount edges { node { id socialName tenantId legislationCode creationDate modificationDate onboardingCompleted documentTypeId } } } }`,
  organizationById: `query ($id: ID!) { organizationById(id: $id) { id socialName legislationCode } }`,
  planMaster: `query ($id: ID!) { accountingPlansMasterById(id: $id) { id description accountingPlanMasterLines { code name accountLevel } } }`,
  userProfile: `{ userProfile { id fullName firstName lastName authenticationEmail applicationLanguageCode } }`,
  enumValues: `query ($enumName: String!, $language: String!) { localizedEnumValues(enumName: $enumName, language: $language) { value label } }`,
  errorMessage: `query ($errorCode: String!, $language: String!) { localizedErrorMessage(errorCode: $errorCode, language: $language) { errorCode language message } }`,
  customerById: `query ($id: UUID!) { customers(where: { id: { eq: $id } }) { edges { node { id code } } } }`,
};

const bearerOnly = { Authorization: `Bearer ${api.token}`, 'x-api-key': 'a-sage-subscription-key' };
const sageHeaders = { ...bearerOnly, 'X-OrganizationId': api.organisationId, 'X-TenantId': neighbour.id };

t.test('every operation validates against the SDL as written', async (t) => {
  for (const [name, op] of Object.entries(OPERATIONS)) t.same(validate(schema, parse(op)).map((e) => e.message), [], name);
});

t.test('organizations answers without X-OrganizationId: the organisation the token serves', async (t) => {
  const r = await api.gql(OPERATIONS.organizations, {}, bearerOnly);
  t.equal(r.errors, undefined);
  t.equal(r.data.organizations.totalCount, 1, 'not the other organisation the user belongs to');
  const [{ node }] = r.data.organizations.edges;
  t.equal(node.id, api.organisationId);
  t.equal(node.legislationCode, 'ES');
  t.equal(node.onboardingCompleted, true);
  t.ok(node.socialName && node.creationDate);
});

t.test('without the header, the header-free roots answer and every other field is refused', async (t) => {
  const r = await api.gql(`{ userProfile { authenticationEmail } organizations { totalCount } journalTypes { totalCount } }`, {}, bearerOnly);
  t.equal(r.data.userProfile.authenticationEmail, 'demo@example.com');
  t.equal(r.data.organizations.totalCount, 1);
  t.equal(r.data.journalTypes, null);
  t.equal(r.errors.length, 1);
  t.same(r.errors[0].path, ['journalTypes']);
  t.equal(r.errors[0].extensions.code, 'AUTH_NOT_AUTHENTICATED');
  t.match(r.errors[0].message, /X-OrganizationId header is mandatory/);
  const mutation = await api.gql(`mutation { createJournalType(input: { code: "NOH", name: "No header", type: GENERAL }) { id } }`, {}, bearerOnly);
  t.match(mutation.errors?.[0]?.message, /X-OrganizationId header is mandatory/, 'writes need the header too');
  const anonymous = await api.gql(OPERATIONS.userProfile, {}, { 'x-api-key': 'k' });
  t.equal(anonymous.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHENTICATED', 'no token, no profile');
  const invalid = await api.gql(`{ organizations { totalCount } }`, {}, { Authorization: 'Bearer not-a-live-token' });
  t.match(invalid.errors?.[0]?.message, /invalid, expired or revoked/);
});

t.test('a read by $id: ID! returns the node, and null for another organisation\'s id', async (t) => {
  const mine = await api.gql(OPERATIONS.organizationById, { id: api.organisationId }, sageHeaders);
  t.equal(mine.errors, undefined);
  t.equal(mine.data.organizationById.id, api.organisationId);
  const theirs = await api.gql(OPERATIONS.organizationById, { id: neighbour.id }, sageHeaders);
  t.equal(theirs.errors, undefined);
  t.equal(theirs.data.organizationById, null, 'the neighbour is not visible to this token');
  const junk = await api.gql(OPERATIONS.organizationById, { id: 'not-an-id' }, sageHeaders);
  t.equal(junk.errors?.[0]?.extensions?.code, 'INVALID_QUERY', 'an id that is not a UUID is refused clearly');
});

t.test('accountingPlansMasterById reads a master chart by id', async (t) => {
  const [chart] = masterCharts();
  const r = await api.gql(OPERATIONS.planMaster, { id: chart.id }, sageHeaders);
  t.equal(r.errors, undefined);
  t.equal(r.data.accountingPlansMasterById.description, chart.description);
  t.equal(r.data.accountingPlansMasterById.accountingPlanMasterLines.length, chart.accountingPlanMasterLines.length);
  const none = await api.gql(OPERATIONS.planMaster, { id: neighbour.id }, sageHeaders);
  t.equal(none.data.accountingPlansMasterById, null);
});

t.test('localizedEnumValues lists an enumeration of the schema; localizedErrorMessage a code\'s message', async (t) => {
  const values = await api.gql(OPERATIONS.enumValues, { enumName: 'JournalTypeType', language: 'fr-FR' }, bearerOnly);
  t.equal(values.errors, undefined);
  t.same(values.data.localizedEnumValues.map((v: { value: string }) => v.value), [...JournalTypeType]);
  t.ok(values.data.localizedEnumValues.every((v: { label: string }) => v.label), 'each value has a label');
  const unknown = await api.gql(OPERATIONS.enumValues, { enumName: 'NoSuchEnum', language: 'en' }, bearerOnly);
  t.equal(unknown.errors?.[0]?.extensions?.code, 'INVALID_QUERY');

  const code = AccountingErrors.unbalancedEntry;
  const message = await api.gql(OPERATIONS.errorMessage, { errorCode: code, language: 'fr-FR' }, bearerOnly);
  t.same(message.data.localizedErrorMessage, { errorCode: code, language: 'fr', message: MESSAGES[code].fr });
  const english = await api.gql(OPERATIONS.errorMessage, { errorCode: code, language: 'xx' }, bearerOnly);
  t.equal(english.data.localizedErrorMessage.message, MESSAGES[code].en, 'a language we do not speak: English');
  const none = await api.gql(OPERATIONS.errorMessage, { errorCode: 'no.such.code', language: 'en' }, bearerOnly);
  t.equal(none.data.localizedErrorMessage, null);
});

t.test('x-api-key and the deprecated X-TenantId are accepted and ignored on GraphQL and REST', async (t) => {
  const r = await api.gql(`{ journalTypes { totalCount } }`, {}, sageHeaders);
  t.equal(r.errors, undefined);
  t.equal(r.data.journalTypes.totalCount, 9, 'the organisation of X-OrganizationId, not of X-TenantId');
  const rest = await api.rest('/journal_types', sageHeaders);
  t.equal(rest.status, 200);
  t.equal(rest.body.$total, 9);
  const junkTenant = await api.rest('/journal_types', { ...sageHeaders, 'X-TenantId': 'not-a-uuid' });
  t.equal(junkTenant.status, 200, 'whatever X-TenantId holds');
});

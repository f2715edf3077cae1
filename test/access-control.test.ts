/**
 * Every mutation of the SDL, tried by callers who must be refused: a readonly token, a role without
 * the grant, an organisation without the feature, an organisation in DE (DE_FORBIDDEN fields), and
 * another organisation's X-Site. Each refusal is AUTH_NOT_AUTHORIZED/AUTH_NOT_AUTHENTICATED and
 * leaves the event store untouched.
 */
import { randomUUID } from 'node:crypto';
import {
  buildSchema, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, type GraphQLInputType,
} from 'graphql';
import t from 'tap';
import { accessRules } from '../api/graphql/directives.ts';
import { buildSdl } from '../api/graphql/sdl.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const schema = buildSchema(buildSdl());
const mutations = Object.values(schema.getMutationType()!.getFields());

/** A value that passes GraphQL coercion for the type: refusals must come from access control, not input. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isInputObjectType(type)) {
    return Object.fromEntries(Object.values(type.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, sample(f.type)]));
  }
  if (isScalarType(type)) return ({ String: 'X1', UUID: randomUUID(), DateTime: '2026-01-15', Decimal: '1.00', Int: 1, Boolean: false } as Record<string, unknown>)[type.name] ?? 'X';
  throw new Error(`no sample for ${String(type)}`);
}

const { identity, commands } = api.service;
async function callerIn(organisationId: string, role: 'admin' | 'accountant' | 'viewer', scope: 'readonly' | 'full_access') {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  await identity.createUser(organisationId, email, 'a-long-password', role);
  const token = await identity.issueToken(organisationId, email, api.clientId, scope);
  return { Authorization: `Bearer ${token.access_token}`, 'X-Site': organisationId };
}

const noCore = await commands.createOrganisation({}, { name: 'No Core SL', country: 'ES', features: ['ACCOUNTING', 'SALES'] });
const german = await commands.createOrganisation({}, { name: 'Deutsche GmbH', country: 'DE' });
const other = await commands.createOrganisation({}, { name: 'Elsewhere SL', country: 'ES' });
const callers = {
  readonly: await callerIn(api.organisationId, 'admin', 'readonly'),
  viewer: await callerIn(api.organisationId, 'viewer', 'full_access'),
  missingFeature: await callerIn(noCore.id, 'admin', 'full_access'),
  german: await callerIn(german.id, 'admin', 'full_access'),
  otherSite: { Authorization: `Bearer ${api.token}`, 'X-Site': other.id },
};

t.ok(mutations.length >= 13, `${mutations.length} mutations under test`);
for (const field of mutations) {
  const rules = accessRules(schema, field);
  const argType = field.args[0].type;
  const query = `mutation($input: ${String(argType)}) { ${field.name}(input: $input) { __typename } }`;
  const variables = { input: sample(argType) };
  t.test(field.name, async (t) => {
    t.equal(rules.policy, 'PublicApi:data:write', 'declares its policy');
    t.ok(rules.feature && rules.accessControl, 'declares feature and access control');
    const cases: [keyof typeof callers, string, RegExp][] = [
      ['readonly', 'AUTH_NOT_AUTHORIZED', /full_access/],
      ['viewer', 'AUTH_NOT_AUTHORIZED', /role viewer/],
      ['otherSite', 'AUTH_NOT_AUTHENTICATED', /not valid for this organisation/],
    ];
    if (rules.feature!.code === 'CORE') cases.push(['missingFeature', 'AUTH_NOT_AUTHORIZED', /CORE feature/]);
    if ([rules.feature?.filter, rules.accessControl?.filter].includes('DE_FORBIDDEN')) cases.push(['german', 'AUTH_NOT_AUTHORIZED', /DE_FORBIDDEN/]);
    for (const [who, code, message] of cases) {
      const before = await api.eventCount();
      const r = await api.gql(query, variables, callers[who]);
      t.equal(r.errors?.[0]?.extensions?.code, code, `${who}: ${code}`);
      t.match(r.errors?.[0]?.message, message, `${who}: the message names what is missing`);
      t.equal(await api.eventCount(), before, `${who}: nothing appended`);
    }
  });
}

t.test('a German organisation may use what is not DE_FORBIDDEN', async (t) => {
  const r = await api.gql(`mutation { createJournalType(input: { code: "XX", name: "Extra", type: GENERAL }) { id } }`, undefined, callers.german);
  t.equal(r.errors, undefined);
});

t.test('an accountant may post, a viewer may read', async (t) => {
  const accountant = await callerIn(api.organisationId, 'accountant', 'full_access');
  const r = await api.gql(`mutation { createJournalType(input: { code: "AC", name: "Accountant's", type: GENERAL }) { id } }`, undefined, accountant);
  t.equal(r.errors, undefined);
  const read = await api.gql(`{ journalTypes(where: { code: { eq: "AC" } }) { totalCount } }`, undefined, callers.viewer);
  t.equal(read.data.journalTypes.totalCount, 1);
});

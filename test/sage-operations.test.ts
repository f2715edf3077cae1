/**
 * Operations written as Sage Active clients write them (shared/research/sage-names.md), one or more per resource
 * and per mutation we serve: each validates against our SDL with its variables coerced, then runs in order against
 * the real service over HTTP with Sage's headers, answers no `errors`, and did what it asked (its `expect`).
 * The coverage test fails when a mutation is served that no operation sends.
 */
import { buildSchema, getVariableValues, Kind, parse, validate, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import t from 'tap';
import { buildSdl } from '../api/graphql/sdl.ts';
import { MUTATIONS } from '../modules/index.ts';
import { runningService } from './helpers/service.ts';
import { NOT_SENT, SAGE_OPERATIONS } from './sage-operations/index.ts';
import type { Context } from './sage-operations/operation.ts';

const schema = buildSchema(buildSdl());
const operationOf = (document: DocumentNode) => document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;

/** Validation and coercion of one operation's variables; [] when both pass. */
function problems(query: string, variables: Record<string, unknown>): string[] {
  const document = parse(query);
  const invalid = validate(schema, document).map((e) => e.message);
  if (invalid.length > 0) return invalid;
  const coerced = getVariableValues(schema, operationOf(document).variableDefinitions ?? [], variables);
  return 'errors' in coerced ? coerced.errors!.map((e) => e.message) : [];
}

// Any id in place of the ids earlier operations return: validation and coercion only look at the shape.
const anyIds: Context = new Proxy({}, { get: () => '00000000-0000-4000-8000-000000000000' });

t.test('every operation validates against the SDL and its variables coerce', async (t) => {
  for (const op of SAGE_OPERATIONS) t.same(problems(op.query, op.variables?.(anyIds) ?? {}), [], op.name);
});

t.test('every mutation we serve is sent by an operation or excluded with a reason', async (t) => {
  const sent = new Set(SAGE_OPERATIONS.flatMap((op) => {
    const operation = operationOf(parse(op.query));
    if (operation.operation !== 'mutation') return [];
    return operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
  }));
  for (const { name } of MUTATIONS) t.ok(sent.has(name) || Object.hasOwn(NOT_SENT, name), `${name} is sent by an operation`);
  for (const name of Object.keys(NOT_SENT)) {
    t.ok(MUTATIONS.some((m) => m.name === name), `excluded ${name} is served`);
    t.notOk(sent.has(name), `excluded ${name} is not also sent`);
  }
});

t.test('each operation runs against the service with Sage headers and does what it asks', async (t) => {
  const api = await runningService(t);
  const bearerOnly = { Authorization: `Bearer ${api.token}`, 'x-api-key': 'sage-subscription-key' };
  // X-TenantId is deprecated but still sent (§1.1): any value, ignored.
  const organisation = { ...bearerOnly, 'X-OrganizationId': api.organisationId, 'X-TenantId': '5d0c3f6e-8a51-4c59-9f0e-1b2c3d4e5f60' };
  const ctx: Context = { organisationId: api.organisationId, year: String(new Date().getUTCFullYear()) };
  for (const op of SAGE_OPERATIONS) {
    const variables = op.variables?.(ctx) ?? {};
    t.same(problems(op.query, variables), [], `${op.name}: valid with the values sent`);
    const r = await api.gql(op.query, variables, op.headers === 'bearerOnly' ? bearerOnly : organisation);
    if (r.errors !== undefined) {
      t.fail(`${op.name}: ${JSON.stringify(r.errors)}`);
      break; // later operations depend on this one's result
    }
    try {
      op.expect(r.data, ctx);
      t.pass(op.name);
    } catch (error) {
      t.fail(`${op.name}: ${(error as Error).message}`, { data: r.data });
      break;
    }
  }
});

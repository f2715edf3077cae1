/**
 * Sage's `users` (the organisation's members, as the OAuth identity store knows them) and
 * `userAccessPolicyCheck(actions)` (which operations the caller may run, fact sheet §2, S1 15).
 */
import { SAGE_ACTION_NAMES } from './sage-action-names.ts';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type pg from 'pg';
import { f, type Resource } from '../../projections/engine/resource.ts';
import type { Caller } from '../auth/identity.ts';
import { listQuery } from './query-builder.ts';
import { accessRules, checkAccess, type OrganisationFacts } from './directives.ts';

/**
 * The members of an organisation, a view of the identity store's users and memberships. Users have an e-mail
 * and no name or language yet: those are null. Read with the service's own role (the reader role has no access
 * to the identity tables, which hold password hashes): the query builder confines it to the caller's organisation.
 */
export const User: Resource = {
  typeName: 'User',
  table: `(SELECT m.organisation_id, u.id, u.email AS authentication_email, NULL::text AS full_name, NULL::text AS first_name, NULL::text AS last_name, NULL::text AS application_language_code FROM memberships m JOIN users u ON u.id = m.user_id)`,
  scope: 'organisation',
  fields: [
    f.uuid('id'),
    f.string('fullName'),
    f.string('firstName'),
    f.string('lastName'),
    f.string('authenticationEmail'),
    f.string('applicationLanguageCode'),
  ],
  query: { field: 'users', connection: 'UsersConnection' },
  defaultOrder: ['authenticationEmail'],
};

export const readUsers = (pool: pg.Pool, caller: Caller, args: Record<string, unknown>) => listQuery(pool, User, caller.organisationId, args as never);

export const USER_ACCESS_SDL = `
type UserAccessPolicyCheck {
  action: String!
  isAllowed: Boolean!
}`;

export const USER_ACCESS_ROOT_FIELDS = `
  userAccessPolicyCheck(actions: [String!]!): [UserAccessPolicyCheck!]! @listSize(assumedSize: 50)`;

export const ACCESS_CHECK_LIMITS = Object.freeze({ maxActions: 500 });

/**
 * An action is the name of a query or mutation of the schema. A query is allowed to every member (reading needs
 * membership only); a mutation as its directives decide for this caller and organisation (directives.ts), so the
 * answer is the one running it would give. A name Sage documents that we do not serve (sage-action-names.ts) is
 * not allowed, as nothing runs it; names that are neither ours nor Sage's are refused together, as Sage does.
 */
export function accessPolicyCheck(schema: GraphQLSchema, actions: readonly string[], caller: Caller, organisation: OrganisationFacts) {
  if (actions.length > ACCESS_CHECK_LIMITS.maxActions) {
    throw new GraphQLError(`actions: at most ${ACCESS_CHECK_LIMITS.maxActions} actions per check.`, { extensions: { code: 'INVALID_QUERY' } });
  }
  const queries = schema.getQueryType()!.getFields();
  const mutations = schema.getMutationType()!.getFields();
  const served = (action: string) => Object.hasOwn(queries, action) || Object.hasOwn(mutations, action);
  const unknown = [...new Set(actions.filter((action) => !served(action) && !SAGE_ACTION_NAMES.has(action)))];
  if (unknown.length > 0) {
    const shown = unknown.map((action) => action.slice(0, 100));
    throw new GraphQLError(`Unknown action names: ${shown.join(', ')}.`, { extensions: { code: 'global.businessErrors.unknownActionNames', details: shown.join('|') } });
  }
  return actions.map((action) => ({
    action,
    isAllowed: Object.hasOwn(mutations, action) ? checkAccess(accessRules(schema, mutations[action]), caller, organisation) === undefined : served(action),
  }));
}

/**
 * Enforces the access directives as the SDL declares them, for every field that carries them: one
 * mechanism, read from the schema, instead of checks inside resolvers. A refusal names what is missing.
 *   @authorize(policy: "PublicApi:data:write")  -> the token's scope must be full_access
 *   @feature(code)                              -> the organisation subscribes to that feature
 *   @accessControl(resource, action)            -> the caller's role grants it (api/auth/roles.ts)
 *   filter: DE_FORBIDDEN                        -> refused for organisations in Germany
 */
import { GraphQLError, getDirectiveValues, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { Caller } from '../auth/identity.ts';
import { roleAllows } from '../auth/roles.ts';

export interface OrganisationFacts {
  country: string | null;
  features: readonly string[];
}

export interface AccessRules {
  field: string;
  policy?: string;
  feature?: { code: string; filter?: string };
  accessControl?: { name: string; resource: string; action: string; filter?: string };
}

const POLICY_SCOPES: Record<string, readonly string[]> = {
  'PublicApi:data:write': ['full_access'],
  'PublicApi:data:read': ['readonly', 'full_access'],
};

export function accessRules(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): AccessRules {
  const value = (name: string) => {
    const directive = schema.getDirective(name);
    return directive && field.astNode ? (getDirectiveValues(directive, field.astNode) as Record<string, string> | undefined) : undefined;
  };
  const authorize = value('authorize');
  const feature = value('feature');
  const access = value('accessControl');
  return {
    field: field.name,
    policy: authorize?.policy,
    feature: feature ? { code: feature.code, filter: feature.filter } : undefined,
    accessControl: access ? { name: access.name, resource: access.resource, action: access.action, filter: access.filter } : undefined,
  };
}

const refuse = (message: string) => new GraphQLError(message, { extensions: { code: 'AUTH_NOT_AUTHORIZED' } });

/** Returns the refusal, or undefined when the caller may proceed. */
export function checkAccess(rules: AccessRules, caller: Caller, organisation: OrganisationFacts): GraphQLError | undefined {
  if (rules.policy) {
    const scopes = POLICY_SCOPES[rules.policy];
    if (!scopes) return refuse(`${rules.field}: unknown policy ${rules.policy}.`);
    if (!scopes.includes(caller.scope)) return refuse(`${rules.field} needs policy ${rules.policy} (scope ${scopes.join(' or ')}); this token's scope is ${caller.scope}.`);
  }
  if (rules.feature && !organisation.features.includes(rules.feature.code)) {
    return refuse(`${rules.field} needs the ${rules.feature.code} feature, to which this organisation does not subscribe.`);
  }
  const filters = [rules.feature?.filter, rules.accessControl?.filter];
  if (filters.includes('DE_FORBIDDEN') && organisation.country === 'DE') {
    return refuse(`${rules.field} is not available for organisations in Germany (DE_FORBIDDEN).`);
  }
  if (rules.accessControl && !roleAllows(caller.role, rules.accessControl.resource, rules.accessControl.action)) {
    return refuse(`${rules.field}: the role ${caller.role} is not granted ${rules.accessControl.action} on ${rules.accessControl.resource} (${rules.accessControl.name}).`);
  }
  return undefined;
}

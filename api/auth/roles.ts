/**
 * The role matrix: which roles may use each `@accessControl` resource, as the areas' modules grant them
 * (modules/). Reading (queries, REST lists) needs membership only; these grants govern writes. A resource
 * no module grants is refused to every role.
 */
import { MODULES } from '../../modules/index.ts';
import type { Role } from './identity.ts';

const GRANTS = new Map<string, Set<Role>>();
for (const module of MODULES) {
  for (const [resource, roles] of Object.entries(module.grants)) {
    const granted = GRANTS.get(resource) ?? new Set<Role>();
    for (const role of roles) granted.add(role);
    GRANTS.set(resource, granted);
  }
}

/** Roles hold every action (add, update, delete) on the resources granted to them. */
export function roleAllows(role: Role, resource: string, _action: string): boolean {
  return GRANTS.get(resource)?.has(role) ?? false;
}

/** Every resource some module grants, with its roles. */
export const ROLE_GRANTS: ReadonlyMap<string, ReadonlySet<Role>> = GRANTS;

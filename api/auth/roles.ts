/**
 * The role matrix, in one place: which `@accessControl` resources and actions each role may use.
 * Reading (queries, REST lists) needs membership only; these grants govern writes.
 */
import type { Role } from './identity.ts';

type Grant = { resource: string; actions: readonly ('add' | 'update' | 'delete')[] };

const ALL = ['add', 'update', 'delete'] as const;

export const ROLE_GRANTS: Record<Role, readonly Grant[]> = {
  admin: [{ resource: 'active/*', actions: ALL }],
  accountant: [
    { resource: 'active/accounting/*', actions: ALL },
    { resource: 'active/shared-settings', actions: ALL },
    { resource: 'active/customer', actions: ALL },
    { resource: 'active/supplier', actions: ALL },
    { resource: 'active/product', actions: ALL },
    { resource: 'active/sales/*', actions: ALL },
    { resource: 'active/common', actions: ALL },
    // employees are personal data: administrators only
  ],
  viewer: [],
};

function matches(pattern: string, resource: string): boolean {
  return pattern.endsWith('/*') ? resource.startsWith(pattern.slice(0, -1)) : pattern === resource;
}

export function roleAllows(role: Role, resource: string, action: string): boolean {
  return (ROLE_GRANTS[role] ?? []).some((g) => matches(g.resource, resource) && (g.actions as readonly string[]).includes(action));
}

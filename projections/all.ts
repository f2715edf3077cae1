/** Every projection of the read models, by name: what the service runs and a rebuild's workers look up. */
import { ACCOUNTING_PROJECTIONS } from './accounting.ts';
import { PARTY_PROJECTIONS } from './parties.ts';
import type { Projection } from './projection.ts';

export const PROJECTIONS: Projection[] = [...ACCOUNTING_PROJECTIONS, ...PARTY_PROJECTIONS];

/** Whether this very projection is the one registered under its name (what another thread would load). */
export const isRegistered = (p: Projection): boolean => PROJECTIONS.find((candidate) => candidate.name === p.name) === p;

export function projectionNamed(name: string): Projection {
  const projection = PROJECTIONS.find((p) => p.name === name);
  if (!projection) throw new Error(`no projection named ${name}`);
  return projection;
}

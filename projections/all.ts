/** Every projection of the read models: what the service runs, and where a rebuild's workers load one from. */
import { ACCOUNTING_PROJECTIONS } from './accounting/projections.ts';
import { PARTY_PROJECTIONS } from './parties/projections.ts';
import { siblingModule } from '../platform/module-files.ts';
import type { Projection } from './engine/projection.ts';

/** Where a projection is defined: its module, the list that module exports it in, and its name. */
export interface ProjectionSource {
  module: string;
  list: string;
  name: string;
}

/** Each module of projections with the list it exports. A worker thread loads only its projection's (starting is a few times quicker). */
const MODULES = [
  { module: siblingModule(import.meta.url, './accounting/projections').href, list: 'ACCOUNTING_PROJECTIONS', projections: ACCOUNTING_PROJECTIONS },
  { module: siblingModule(import.meta.url, './parties/projections').href, list: 'PARTY_PROJECTIONS', projections: PARTY_PROJECTIONS },
];

export const PROJECTIONS: Projection[] = MODULES.flatMap((m) => m.projections);

/** Where this very projection object is registered (what another thread would load), if it is. */
export function sourceOf(projection: Projection): ProjectionSource | undefined {
  const found = MODULES.find((m) => m.projections.includes(projection));
  return found && { module: found.module, list: found.list, name: projection.name };
}

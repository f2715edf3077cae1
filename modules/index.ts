/**
 * The module list: every business area, once. Everything that was a registry derives from it: the GraphQL
 * schema and resolvers, the REST collections, the queue catalog, the messages, the grants and the
 * projections the daemon runs. A new area is one line here.
 */
import { accounting } from './accounting.ts';
import { catalog } from './catalog.ts';
import type { BusinessModule } from './module.ts';
import { parties } from './parties.ts';
import { salesRead } from './sales-read.ts';
import { settings } from './settings.ts';

export const MODULES: readonly BusinessModule[] = [accounting, parties, settings, catalog, salesRead];

export const PROJECTIONS = MODULES.flatMap((m) => m.projections);
export const RESOURCES = MODULES.flatMap((m) => m.resources);
export const MUTATIONS = MODULES.flatMap((m) => m.mutations);

/**
 * The module list: every business area, once. Everything that was a registry derives from it: the GraphQL
 * schema and resolvers, the REST collections, the queue catalog, the messages, the grants and the
 * projections the daemon runs. A new area is one line here.
 */
import { accounting } from './accounting.ts';
import { catalog } from './catalog.ts';
import type { BusinessModule } from './module.ts';
import { parties } from './parties.ts';
import { reports } from './reports.ts';
import { sales } from './sales.ts';
import { settings } from './settings.ts';
import { taxes } from './taxes.ts';

export const MODULES: readonly BusinessModule[] = [accounting, parties, settings, catalog, taxes, sales, reports];

export const PROJECTIONS = MODULES.flatMap((m) => m.projections);
export const RESOURCES = MODULES.flatMap((m) => m.resources);
export const MUTATIONS = MODULES.flatMap((m) => m.mutations);
export const QUERIES = MODULES.flatMap((m) => m.queries ?? []);

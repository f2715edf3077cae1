/**
 * A business area, registered once: its aggregates, enumerations, mutations, read models and
 * projections, the events it records (queued or not), its error messages and its role grants. The
 * module list (modules/index.ts) is where the GraphQL schema, the REST collections, the queue catalog,
 * the messages, the grants and the projection daemon find them: no other registry exists.
 */
import type pg from 'pg';
import type { Caller, Role } from '../api/auth/identity.ts';
import type { Language } from '../api/i18n.ts';
import type { CommandServices } from '../commands/services.ts';
import type { Aggregate } from '../commands/aggregate-store.ts';
import type { MutationSpec } from '../commands/mutation.ts';
import type { ErrorMessages } from '../domain/messages.ts';
import type { EventCatalog } from '../eventqueue/event-catalog.ts';
import type { Projection } from '../projections/engine/projection.ts';
import type { Resource } from '../projections/engine/resource.ts';

/** An aggregate with the event types its deciders record (each one is in the module's `events`). */
export interface RegisteredAggregate extends Aggregate<any, any> {
  eventTypes: readonly string[];
}

/** What a query root's resolver is given: the caller (authenticated, with an organisation) and a scoped reader. */
export interface QueryContext {
  caller: Caller;
  services: CommandServices;
  /** The service's pool: for the few reads that row-level security does not cover (the event store's own tables). */
  pool: pg.Pool;
  language: Language;
  /** The service's clock (tests move it). */
  now: Date;
  /** Runs reads as the reader role, confined to the caller's organisation (api/read-scope.ts). */
  read<T>(fn: (db: pg.PoolClient) => Promise<T>): Promise<T>;
  /** The same, every statement reading one snapshot of the books (a report whose statements must agree). */
  readSnapshot<T>(fn: (db: pg.PoolClient) => Promise<T>): Promise<T>;
}

/**
 * Query roots that are not a resource's list: reports, figures, catalogs. The SDL of their inputs and outputs
 * (types already in spec-types.graphql are not repeated) and one resolver per root field.
 */
export interface QuerySpec {
  sdl: string;
  /** Lines of the Query type, e.g. `  salesKpis(input: SalesKpiInput!): [KpiGlDto!]! @listSize(assumedSize: 5)`. */
  rootFields: string;
  resolvers: Readonly<Record<string, (args: any, ctx: QueryContext) => Promise<unknown> | unknown>>;
}

export interface BusinessModule {
  name: string;
  aggregates: readonly RegisteredAggregate[];
  /** GraphQL enumerations: name and values (fields, inputs and filters refer to them by name). */
  enums: Readonly<Record<string, readonly string[]>>;
  mutations: readonly MutationSpec[];
  /** Read models: GraphQL types and connections, REST collections, tables. */
  resources: readonly Resource[];
  projections: readonly Projection[];
  /** Every event type its aggregates record: queued (object, action, key) or not, and why. */
  events: EventCatalog;
  /** Its business errors' codes with their messages in every language. */
  errors: ErrorMessages;
  /** Which roles may use each `@accessControl` resource its mutations name (reading needs membership only). */
  grants: Readonly<Record<string, readonly Role[]>>;
  /** Its query roots beyond resource lists (reports, figures, catalogs). */
  queries?: readonly QuerySpec[];
}

export const defineModule = (module: BusinessModule): BusinessModule => Object.freeze(module);

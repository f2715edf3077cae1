/**
 * The GraphQL interface (POST /graphql, GraphiQL at /graphiql): Mercurius over the generated SDL.
 * Lists read the read models; mutations run commands and wait until the read models include their
 * events, so a client reads its own writes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GraphQLError, buildSchema } from 'graphql';
import { DEFAULT_COST_LIMITS } from './cost.ts';
import mercurius from 'mercurius';
import type pg from 'pg';
import { BusinessError } from '../../domain/errors.ts';
import type { OrganisationState } from '../../domain/accounting/organisation.ts';
import type { ProjectionDaemon } from '../../projections/engine/daemon.ts';
import type { Resource } from '../../projections/engine/resource.ts';
import { Identity, type Caller } from '../auth/identity.ts';
import { ORGANISATION_HEADER_MANDATORY, organisationHeaderMissing } from '../auth/request.ts';
import { localize, pickLanguage, type Language } from '../i18n.ts';
import { readScoped } from '../read-scope.ts';
import { loadEmbedded } from './embedded.ts';
import { commandIdOf } from './command-ids.ts';
import { accessRules, checkAccess } from './directives.ts';
import { OrganisationAggregate } from '../../commands/accounting/aggregates.ts';
import type { CommandServices } from '../../commands/services.ts';
import { MUTATIONS } from './mutations.ts';
import { notVisibleError } from './read-your-writes.ts';
import { unstorableTextAt } from '../../platform/storable-text.ts';
import { QueryInputError, listQuery, rowsWhereIn, type Row } from './query-builder.ts';
import { CONNECTION_WHERE, aggregateQuery } from './aggregate.ts';
import { GraphiqlPage, graphiqlRoutes } from './graphiql.ts';
import { INPUT_LIMITS, addRequestGate } from './request-gate.ts';
import { formatExecution } from './responses.ts';
import { parseJsonKeepingNumbers } from './sent-numbers.ts';
import { SCALAR_RESOLVERS } from './scalars.ts';
import { ENUMS, GRAPHQL_RESOURCES, buildSdl } from './sdl.ts';
import { productPriceById } from './product-price.ts';
import { HEADER_FREE_ROOTS, localizedEnumValues, localizedErrorMessage, masterChartById, masterCharts } from './sage-roots.ts';
import { accountingSetup, thirdPartyCodeModeSettings } from './setup.ts';
import { accessPolicyCheck, readUsers } from './users.ts';
import { QUERIES } from '../../modules/index.ts';
import { isUuid } from '../../domain/ids.ts';

export interface GraphqlOptions {
  costBudget?: number;
  pool: pg.Pool;
  daemon: ProjectionDaemon;
  services: CommandServices;
  /** What /graphiql prefills (the demo's headers, when main.ts seeded it). */
  graphiql?: GraphiqlPage;
}

interface Context {
  caller: Caller | undefined;
  idempotencyKey: string | undefined;
  authError: string | undefined;
  /** A token without an organisation header: only HEADER_FREE_ROOTS answer (the token's own organisation). */
  organisationMissing: boolean;
  language: Language;
}

const error = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });

/** The caller of a root answered without an organisation header: the token's user in the token's organisation. */
function requireUser(ctx: Context): Caller {
  if (ctx.caller) return ctx.caller;
  throw error(ctx.authError ?? 'The current user is not authenticated.', 'AUTH_NOT_AUTHENTICATED');
}

/** The caller of every other field: the organisation header is required (spec 5.1). */
function requireCaller(ctx: Context): Caller {
  if (ctx.organisationMissing) throw error(ORGANISATION_HEADER_MANDATORY, 'AUTH_NOT_AUTHENTICATED');
  return requireUser(ctx);
}

function listResolver<T>(pool: pg.Pool, resource: Resource, root: string, read: (db: pg.PoolClient, caller: Caller, args: Record<string, unknown>) => Promise<T>) {
  const authenticated = HEADER_FREE_ROOTS.has(root) ? requireUser : requireCaller;
  return async (_: unknown, args: Record<string, unknown>, ctx: Context) => {
    const caller = authenticated(ctx);
    const unstorable = unstorableTextAt(args); // (no row holds such text, and PostgreSQL would refuse the parameter)
    if (unstorable) throw error(`${unstorable.field} ${unstorable.reason}`, 'INVALID_QUERY');
    try {
      return await readScoped(pool, caller.organisationId, (db) => read(db, caller, args));
    } catch (e) {
      if (e instanceof QueryInputError) throw error(e.message, 'INVALID_QUERY');
      throw e;
    }
  };
}

const connectionResolver = (pool: pg.Pool, resource: Resource) =>
  listResolver(pool, resource, resource.query!.field, async (db, caller, args) => ({ ...(await listQuery(db, resource, caller.organisationId, args as never)), [CONNECTION_WHERE]: args.where }));

/** `aggregate(...)` on a connection: the groups of the rows its `where` selects, read like the list. */
function aggregateResolver(pool: pg.Pool, resource: Resource) {
  const read = listResolver(pool, resource, resource.query!.field, (db, caller, args) => aggregateQuery(db, resource, caller.organisationId, args.where as never, args));
  return (connection: { [CONNECTION_WHERE]?: unknown }, args: Record<string, unknown>, ctx: Context) => read(connection, { ...args, where: connection[CONNECTION_WHERE] }, ctx);
}

/** `<byId>(id: ID!)`: the node, through the same scoped list query, or null when the organisation has none. */
const byIdResolver = (pool: pg.Pool, resource: Resource) =>
  listResolver(pool, resource, resource.query!.byId!, async (db, caller, args) => (await listQuery(db, resource, caller.organisationId, { where: { id: { eq: args.id } }, first: 1 })).nodes[0] ?? null);

/** Batched (per request, per field) loading of referenced objects and child lists. */
function loadersFor(pool: pg.Pool, services: CommandServices) {
  const loaders: Record<string, Record<string, (queries: { obj: Row; params?: { order?: unknown } }[], ctx: { reply: { request: FastifyRequest } } & Context) => Promise<unknown[]>>> = {};
  for (const r of GRAPHQL_RESOURCES) {
    for (const field of r.fields) {
      if (field.kind === 'reference') {
        (loaders[r.typeName] ??= {})[field.name] = async (queries, ctx) => {
          const ids = [...new Set(queries.map((q) => q.obj[field.via]).filter(Boolean))];
          if (ids.length === 0) return queries.map(() => null);
          const org = requireCaller(ctx).organisationId;
          const rows = await readScoped(pool, org, (db) => rowsWhereIn(db, field.resource(), org, 'id', ids));
          const byId = new Map(rows.map((row) => [row.id, row]));
          return queries.map((q) => byId.get(q.obj[field.via]) ?? null);
        };
      } else if (field.kind === 'computed' && field.byOrganisation) {
        // The reading organisation once per request and field, for all the rows asked.
        (loaders[r.typeName] ??= {})[field.name] = async (queries, ctx) => {
          const { organisationId } = requireCaller(ctx);
          // The country never changes: the cached organisation answers as well as the stream.
          const state = services.aggregates.cached<OrganisationState>(OrganisationAggregate, organisationId) ?? (await services.organisation(organisationId));
          const organisation = state.id && state.country ? { id: state.id, country: state.country } : undefined;
          return queries.map((q) => (organisation ? field.resolve(q.obj, organisation) : null));
        };
      } else if (field.kind === 'embedded') {
        (loaders[r.typeName] ??= {})[field.name] = (queries, ctx) => loadEmbedded(pool, field, requireCaller(ctx).organisationId, queries.map((q) => q.obj));
      } else if (field.kind === 'children') {
        (loaders[r.typeName] ??= {})[field.name] = async (queries, ctx) => {
          const key = field.parentKey ?? 'id';
          const org = requireCaller(ctx).organisationId;
          // One read per distinct `order` argument asked for in the request (usually one).
          const orders = [...new Set(queries.map((q) => JSON.stringify(q.params?.order ?? null)))];
          const lists = await Promise.all(orders.map(async (order) => {
            const ids = [...new Set(queries.filter((q) => JSON.stringify(q.params?.order ?? null) === order).map((q) => q.obj[key]).filter(Boolean))];
            if (ids.length === 0) return [];
            return readScoped(pool, org, (db) => rowsWhereIn(db, field.resource(), org, field.foreignKey, ids, field.orderBy, JSON.parse(order) ?? undefined));
          }));
          return queries.map((q) => lists[orders.indexOf(JSON.stringify(q.params?.order ?? null))].filter((row) => row[field.foreignKey] === q.obj[key]));
        };
      }
    }
  }
  return loaders;
}

function typeResolvers() {
  const resolvers: Record<string, Record<string, (obj: Row) => unknown>> = {};
  for (const r of GRAPHQL_RESOURCES) {
    for (const field of r.fields) {
      if (field.kind === 'absent') (resolvers[r.typeName] ??= {})[field.name] = () => (field.gql.endsWith('!') ? [] : null);
      if (field.kind === 'computed' && !field.byOrganisation) (resolvers[r.typeName] ??= {})[field.name] = (obj) => field.resolve(obj);
    }
  }
  return resolvers;
}

export async function graphqlPlugin(app: FastifyInstance, options: GraphqlOptions): Promise<void> {
  const { pool, daemon, services } = options;
  const identity = new Identity(pool);
  const Connections: Record<string, Record<string, unknown>> = {};
  const Query: Record<string, unknown> = {
    accountingPlanMasters: (_: unknown, __: unknown, ctx: Context) => (requireCaller(ctx), masterCharts()),
    accountingPlansMasterById: (_: unknown, args: { id: string }, ctx: Context) => (requireCaller(ctx), masterChartById(args.id)),
    userProfile: async (_: unknown, __: unknown, ctx: Context) => {
      const { userId } = requireUser(ctx);
      const email = await identity.userEmail(userId);
      // Users have an e-mail and no name yet.
      return { id: userId, fullName: null, firstName: null, lastName: null, authenticationEmail: email ?? null, applicationLanguageCode: ctx.language };
    },
    localizedEnumValues: (_: unknown, args: { enumName: string; language: string }, ctx: Context) => {
      requireUser(ctx);
      const values = localizedEnumValues(ENUMS, args.enumName);
      if (!values) throw error(`enumName: no enumeration named ${JSON.stringify(args.enumName.slice(0, 100))}`, 'INVALID_QUERY');
      return values;
    },
    localizedErrorMessage: (_: unknown, args: { errorCode: string; language: string }, ctx: Context) => (requireUser(ctx), localizedErrorMessage(args.errorCode, args.language)),
  };
  for (const r of GRAPHQL_RESOURCES) {
    if (r.query) Query[r.query.field] = connectionResolver(pool, r);
    if (r.query) Connections[r.query.connection] = { aggregate: aggregateResolver(pool, r) };
    if (r.query?.byId) Query[r.query.byId] = byIdResolver(pool, r);
  }

  // Users are read from the identity store with the service's role (users.ts), confined to the caller's organisation.
  Query.users = async (_: unknown, args: Record<string, unknown>, ctx: Context) => readUsers(pool, requireCaller(ctx), args);
  Query.thirdPartyCodeModeSettings = (_: unknown, __: unknown, ctx: Context) => (requireCaller(ctx), thirdPartyCodeModeSettings());
  // By the organisation's id, as organizationById: another organisation's id answers nothing.
  Query.organizationAccountingSetupByOrgId = async (_: unknown, args: { id: string }, ctx: Context) => {
    const caller = requireCaller(ctx);
    if (!isUuid(args.id)) throw error(`id: ${JSON.stringify(String(args.id).slice(0, 100))} is not a UUID`, 'INVALID_QUERY');
    if (args.id.toLowerCase() !== caller.organisationId.toLowerCase()) return null;
    const org = await services.organisation(caller.organisationId);
    if (!org.id || !org.country) return null;
    const { rows } = await readScoped(pool, caller.organisationId, (db) => db.query(`SELECT name FROM organisations WHERE id = $1`, [caller.organisationId]));
    return accountingSetup({ ...org, id: org.id, country: org.country }, rows[0]?.name ?? null);
  };
  // The modules' reports and figures: read models only, confined to the caller's organisation as every list.
  for (const spec of QUERIES) {
    for (const [root, resolve] of Object.entries(spec.resolvers)) {
      Query[root] = (_: unknown, args: Record<string, unknown>, ctx: Context) => {
        const caller = requireCaller(ctx);
        const unstorable = unstorableTextAt(args); // as for the lists: PostgreSQL would refuse the parameter
        if (unstorable) throw error(`${unstorable.field} ${unstorable.reason}`, 'INVALID_QUERY');
        const read = <T>(fn: (db: pg.PoolClient) => Promise<T>) => readScoped(pool, caller.organisationId, fn);
        const readSnapshot = <T>(fn: (db: pg.PoolClient) => Promise<T>) => readScoped(pool, caller.organisationId, fn, { snapshot: true });
        return resolve(args, { caller, services, pool, language: ctx.language, now: new Date(services.now()), read, readSnapshot });
      };
    }
  }
  Query.productPriceById = async (_: unknown, args: { id: string; productPrice: Record<string, unknown> }, ctx: Context) =>
    productPriceById(pool, services, requireCaller(ctx).organisationId, args, ctx.language);
  Query.userAccessPolicyCheck = async (_: unknown, args: { actions: string[] }, ctx: Context) => {
    const caller = requireCaller(ctx);
    return accessPolicyCheck(schema, args.actions, caller, await organisationFacts(caller));
  };

  const sdl = buildSdl();
  const schema = buildSchema(sdl);
  const mutationFields = schema.getMutationType()!.getFields();
  // Features and country change rarely: the cached organisation is enough to check access (a command itself
  // decides against the current state).
  async function organisationFacts(caller: Caller): Promise<OrganisationState> {
    const organisation = services.aggregates.cached<OrganisationState>(OrganisationAggregate, caller.organisationId) ?? (await services.organisation(caller.organisationId).catch(() => undefined));
    if (!organisation?.id) throw error(`Organisation ${caller.organisationId} does not exist.`, 'AUTH_NOT_AUTHORIZED');
    return organisation;
  }
  const Mutation: Record<string, unknown> = {};
  for (const m of MUTATIONS) {
    const rules = accessRules(schema, mutationFields[m.name]);
    Mutation[m.name] = async (_: unknown, args: { input: unknown }, ctx: Context) => {
      const caller = requireCaller(ctx);
      const refusal = checkAccess(rules, caller, await organisationFacts(caller));
      if (refusal) throw refusal;
      try {
        // An Idempotency-Key makes a retried mutation return the first outcome instead of acting twice.
        const commandId = ctx.idempotencyKey ? await commandIdOf(services.aggregates.store, caller, m.name, ctx.idempotencyKey) : undefined;
        const result = await m.run(services, { organisationId: caller.organisationId, userId: caller.userId, clientId: caller.clientId, commandId }, args.input);
        const lag = await daemon.visible(result.position, caller.organisationId);
        if (lag) throw notVisibleError(result, lag);
        return { ...result.fields, id: result.id, number: result.number, code: result.code };
      } catch (e) {
        if (e instanceof BusinessError) throw new GraphQLError(localize(e.code, e.params, ctx.language), { extensions: { code: e.code, parameters: e.params } });
        throw e;
      }
    };
  }

  graphiqlRoutes(app, options.graphiql ?? new GraphiqlPage());
  parseJsonKeepingNumbers(app); // (this plugin's context only: /graphql)
  // Nesting, token and cost limits run before anything else of the request (authentication included).
  addRequestGate(app, schema, { ...DEFAULT_COST_LIMITS, maxCost: options.costBudget ?? DEFAULT_COST_LIMITS.maxCost });
  // The header is required per field (requireCaller), not per request: a few roots answer without it.
  app.authenticateCallers({ organisation: 'optional' });

  await app.register(mercurius, {
    schema: sdl,
    resolvers: { Query, Mutation, ...Connections, ...SCALAR_RESOLVERS, ...typeResolvers() } as never,
    loaders: loadersFor(pool, services) as never,
    graphiql: false, // served by graphiql.ts, from the packages instead of a CDN
    graphql: { parseOptions: { maxTokens: INPUT_LIMITS.maxTokens } },
    errorFormatter: formatExecution as never,
    context: async (request: FastifyRequest): Promise<Context> => {
      const language = pickLanguage(request.headers['accept-language'], request.headers.cookie);
      const key = request.headers['idempotency-key'];
      const idempotencyKey = typeof key === 'string' && key.length > 0 && key.length <= 200 ? key : undefined;
      // Authenticated by the hook above; a refusal is answered per field (AUTH_NOT_AUTHENTICATED), not per request.
      return { caller: request.caller ?? undefined, idempotencyKey, authError: request.callerRefusal?.message, organisationMissing: organisationHeaderMissing(request.headers), language };
    },
  });
}

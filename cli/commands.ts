/** The operator CLI's commands (DESIGN.md): each with its options, what they mean, and what it does. */
import { Role, Scope } from '../api/auth/identity.ts';
import { buildSdl } from '../api/graphql/sdl.ts';
import { PROJECTIONS, type openCore } from '../service/core.ts';
import { OrganisationCountry } from '../domain/enums.ts';
import { BusinessError, Errors } from '../domain/errors.ts';
import { Feature } from '../domain/accounting/organisation.ts';
import { parsePosition } from '../eventstore/port.ts';
import { KNOWN_FILTERS } from '../eventqueue/catalog.ts';
import { fanoutProjection } from '../eventqueue/fanout.ts';
import { createTrigger, deleteTrigger, listTriggers, parseTriggerStart } from '../eventqueue/triggers.ts';
import { listParked, retryParked } from '../projections/engine/parked.ts';
import { redriveTrigger } from '../eventqueue/webhooks/redrive.ts';
import { queueStatus } from '../eventqueue/webhooks/status.ts';
import type { Config } from '../platform/config.ts';
import { projectionStatus, rebuildProjection, type ReadModelChecksum } from '../projections/engine/rebuild.ts';
import { replayOrganisation } from '../projections/engine/replay.ts';
import { upgradeCharts } from '../commands/accounting/chart-upgrade.ts';
import { UsageError, type Command, type OptionSpec } from './args.ts';
import { aggregateHistory } from './history.ts';
import { listClients, listOrganisations, listUsers } from './listings.ts';
import { exportFec } from './fec.ts';
import { verifyChain } from './verify.ts';
import { CSV_REPORTS, reportCsv, writeReport } from './reports.ts';

export interface CliContext {
  /** The service's core; opened before the command runs unless the command is `offline`. */
  core: Awaited<ReturnType<typeof openCore>>;
  config: Config;
  /** `--json`: one JSON object; otherwise `human()` when given. */
  print(result: unknown, human?: () => string): void;
}

/** A failure the operator can act on: its message, exit 1. */
export class CliFailure extends Error {}

const org = (description = 'the organisation id (X-Site, resource_owner_id)'): OptionSpec => ({ type: 'string', value: 'ID', description, required: true, uuid: true });
const triggerId: OptionSpec = { type: 'string', value: 'TRIGGER', description: 'the trigger id (from trigger list)', required: true, uuid: true };
const events: OptionSpec = { type: 'string', value: 'T,...', description: 'only these events (default: all)', choices: KNOWN_FILTERS, list: true };
const csv = (value: unknown) => (typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter(Boolean) : undefined);
const str = (value: unknown) => value as string;
const positionOf = (text: string) => {
  try {
    return parsePosition(text);
  } catch {
    throw new UsageError(`ledger replay: --position must be COMMIT/PREPARE (two integers), not '${text}'`);
  }
};

/** The organisation must exist (its events, not the read model): a missing one is named with where to look. */
async function requireOrganisation(core: CliContext['core'], organisationId: string): Promise<void> {
  try {
    await core.commands.organisation(organisationId);
  } catch (error) {
    if (error instanceof BusinessError && error.code === Errors.organisationNotFound) throw new CliFailure(`no organisation ${organisationId} (ledger org list shows them)`);
    throw error;
  }
}

export const COMMANDS: Array<Command<CliContext>> = [
  {
    name: 'org create', summary: 'create an organisation with its country\'s chart and journal types; prints its id',
    options: {
      name: { type: 'string', value: 'N', description: 'the organisation\'s name', required: true },
      country: { type: 'string', value: 'CC', description: 'its country', required: true, choices: OrganisationCountry, upperCase: true },
      features: { type: 'string', value: 'F,...', description: 'features to enable (default: all)', choices: Feature, upperCase: true, list: true },
    },
    async run({ core, print }, v) {
      const features = csv(v.features)?.map((f) => f.toUpperCase());
      const r = await core.commands.createOrganisation({}, { name: v.name, country: str(v.country).toUpperCase(), ...(features ? { features } : {}) });
      print({ id: r.id });
    },
  },
  {
    name: 'org list', summary: 'list organisations: id, name, country', options: {},
    async run({ core, print }) {
      const organisations = await listOrganisations(core.db.pool);
      // The list is the read model: organisations created while no service runs appear once one does.
      const [status] = await projectionStatus(core.db.pool, PROJECTIONS.filter((p) => p.name === 'organisations'));
      if (status?.eventsBehind) process.stderr.write(`note: the organisations read model is ${status.eventsBehind} event${status.eventsBehind === 1 ? '' : 's'} behind; start the service (npm start) to bring it up to date\n`);
      print({ organisations }, () => organisations.map((o) => `${o.id}  ${o.country}  ${o.name}`).join('\n') || 'no organisations');
    },
  },
  {
    name: 'org upgrade-chart', summary: 'give organisations the accounts their country\'s master chart gained since they were created; prints what it installed',
    details: 'The service does this at every start. Never installs an account the organisation deleted, nor one whose code it has; running it again installs nothing.',
    options: { org: { ...org('only this organisation (default: every one)'), required: false } },
    async run({ core, print }, v) {
      const organisationId = v.org as string | undefined;
      if (organisationId) await requireOrganisation(core, organisationId);
      const report = await upgradeCharts(core.commands, core.store, { organisationId });
      print(report, () => [
        ...report.upgraded.map((u) => `${u.organisationId}  installed ${u.codes.join(', ')}`),
        ...report.failed.map((f) => `${f.organisationId}  FAILED: ${f.error}`),
        report.accounts === 0 ? `nothing to install (${report.organisations} organisation${report.organisations === 1 ? '' : 's'} checked)`
          : `${report.accounts} accounts installed in ${report.upgraded.length} of ${report.organisations} organisations`,
      ].join('\n'));
      if (report.failed.length > 0) return 1;
    },
  },
  {
    name: 'user create', summary: 'create a user (or add an existing one) as a member of an organisation; prints the user id',
    options: {
      org: org(),
      email: { type: 'string', value: 'E', description: 'the user\'s email (their sign-in name)', required: true },
      password: { type: 'string', value: 'P', description: 'the password to sign in with', required: true },
      role: { type: 'string', value: 'R', description: 'the role in the organisation (default: accountant)', choices: Role },
    },
    async run({ core, print }, v) {
      await requireOrganisation(core, str(v.org));
      print({ id: await core.identity.createUser(str(v.org), str(v.email), str(v.password), (v.role ?? 'accountant') as Role) });
    },
  },
  {
    name: 'user list', summary: 'list users with their organisations and roles',
    options: { org: { ...org('only the members of this organisation'), required: false } },
    async run({ core, print }, v) {
      const users = await listUsers(core.db.pool, v.org as string | undefined);
      print({ users }, () => users.map((u) => `${u.email}  ${u.memberships.map((m) => `${m.role} of ${m.name ?? '?'} (${m.organisationId})`).join(', ') || 'no organisation'}`).join('\n') || 'no users');
    },
  },
  {
    name: 'client create', summary: 'register an OAuth client; prints client_id and client_secret (shown once)',
    options: {
      name: { type: 'string', value: 'N', description: 'the application\'s name, shown on the consent page', required: true },
      'redirect-uri': { type: 'string', value: 'U', description: 'its callback URL (matched exactly)', required: true },
      public: { type: 'boolean', description: 'a public client (no secret; PKCE required)' },
    },
    async run({ core, print }, v) {
      print(await core.identity.createClient(str(v.name), str(v['redirect-uri']), v.public === true));
    },
  },
  {
    name: 'client list', summary: 'list OAuth clients: client_id, name, redirect URIs, public (secrets are never shown)', options: {},
    async run({ core, print }) {
      const clients = await listClients(core.db.pool);
      print({ clients }, () => clients.map((c) => `${c.clientId}  ${c.public ? 'public ' : 'confidential'}  ${c.name}  ${c.redirectUris.join(' ')}`).join('\n') || 'no clients');
    },
  },
  {
    name: 'token create', summary: 'issue an access token for a member of an organisation through a client (1 hour)',
    details: 'The user and client must exist (see user list, client list). Use the token with X-Site: <the --org id>.',
    options: {
      org: org(),
      user: { type: 'string', value: 'E', description: 'the member\'s email', required: true },
      client: { type: 'string', value: 'CID', description: 'the OAuth client_id', required: true },
      scope: { type: 'string', value: 'S', description: 'what the token may do', required: true, choices: Scope },
    },
    async run({ core, print }, v) {
      print(await core.identity.issueToken(str(v.org), str(v.user), str(v.client), v.scope as Scope));
    },
  },
  {
    name: 'schema print', summary: 'print the GraphQL SDL with every applied directive', options: {}, offline: true,
    async run() {
      process.stdout.write(buildSdl());
    },
  },
  {
    name: 'projections status', summary: 'checkpoint and lag of each projection (fan-out included), and the events parked', options: {},
    async run({ core, print }) {
      const status = await projectionStatus(core.db.pool, [...PROJECTIONS, fanoutProjection]);
      const parked = await listParked(core.db.pool);
      const rebuilding = (s: (typeof status)[number]) => (s.rebuild ? `   rebuild under way or interrupted: ${s.rebuild.eventsDone} events done (run it again to resume)` : '');
      // (Only read models have versions: the fan-out writes queues.)
      const outdated = (s: (typeof status)[number]) => (PROJECTIONS.some((p) => p.name === s.name) && s.version.stored !== s.version.code
        ? `   OUTDATED: tables of version ${s.version.stored ?? '(before versions)'}, code ${s.version.code}: the service rebuilds them in the background, or run ledger projections rebuild ${s.name}` : '');
      print({ projections: status, parked }, () => [
        ...status.map((s) => `${s.name.padEnd(16)} checkpoint ${s.checkpoint.padEnd(24)} behind ${s.eventsBehind} events (${s.lagSeconds.toFixed(3)} s)   updated ${s.updatedAt}${rebuilding(s)}${outdated(s)}`),
        ...parked.map((p) => `PARKED ${p.projection.padEnd(16)} organisation ${p.organisationId || '(none)'}: event ${p.eventId} (${p.eventType} at ${p.position}) failed, ${p.heldEvents} later events held, ${p.attempts} attempts: ${p.error}`),
      ].join('\n'));
    },
  },
  {
    name: 'projections retry', summary: 'apply again an event parked by a projection and the events held behind it (after a fix)',
    positional: { name: 'NAME', description: `the projection (${[...PROJECTIONS, fanoutProjection].map((p) => p.name).join(', ')}); all without it` },
    options: { org: { type: 'string', value: 'ID', description: 'only this organisation\'s parked events', uuid: true } },
    async run({ core, print }, v, name) {
      const all = [...PROJECTIONS, fanoutProjection];
      if (name && !all.some((p) => p.name === name)) throw new UsageError(`ledger projections retry: unknown projection ${name}; known: ${all.map((p) => p.name).join(', ')}`);
      const results = await retryParked(core.db.pool, core.store, all, { projection: name, organisationId: typeof v.org === 'string' ? v.org : undefined });
      print({ retried: results }, () => results.map((r) => `${r.projection.padEnd(16)} ${r.organisationId || '(none)'}: ${r.error ? `still parked: ${r.error}` : `${r.applied} held events applied`}`).join('\n') || 'nothing parked');
      if (results.some((r) => r.error)) return 1;
    },
  },
  {
    name: 'projections rebuild', summary: 'rebuild read models from the events, with progress; resumes after an interruption',
    positional: { name: 'NAME', description: `the projection to rebuild (${PROJECTIONS.map((p) => p.name).join(', ')}); all without it` },
    options: { all: { type: 'boolean', description: 'rebuild every projection (the default)' } },
    async run({ core, print }, v, name) {
      const chosen = v.all || !name ? PROJECTIONS : PROJECTIONS.filter((p) => p.name === name);
      if (chosen.length === 0) throw new UsageError(`ledger projections rebuild: unknown projection ${name}; known: ${PROJECTIONS.map((p) => p.name).join(', ')}`);
      const abort = new AbortController();
      process.once('SIGINT', () => abort.abort());
      const results: Record<string, ReadModelChecksum[]> = {};
      for (const p of chosen) {
        const started = Date.now();
        results[p.name] = await rebuildProjection(core.db.pool, core.store, p, (progress) => {
          const pct = progress.total ? Math.floor((progress.done / progress.total) * 100) : 100;
          const bar = '#'.repeat(Math.floor(pct / 4)).padEnd(25, '.');
          const rate = Math.round(progress.done / Math.max(0.001, (Date.now() - started) / 1000));
          const stage = progress.stage === 'events' ? '' : `, ${{ indexes: 'building indexes', swap: 'swapping', checksums: 'checksums' }[progress.stage]} ...`;
          process.stderr.write(`\r${p.name.padEnd(14)} [${bar}] ${pct}% ${progress.done}/${progress.stage === 'events' ? '~' : ''}${progress.total} events ${rate}/s${stage}`);
        }, { signal: abort.signal });
        process.stderr.write('\n');
      }
      print({ rebuilt: results }, () => Object.values(results).flat().map((c) => `${c.table.padEnd(28)} ${String(c.rows).padStart(9)} rows  checksum ${c.checksum}`).join('\n'));
    },
  },
  {
    name: 'history', summary: 'who did what, when, to one aggregate (its stream, oldest first)',
    options: { org: org(), stream: { type: 'string', value: 'STREAM_ID', description: 'the aggregate\'s stream, e.g. Organisation-<id> or Ledger-<id>', required: true } },
    async run({ core, print }, v) {
      const history = await aggregateHistory(core.store, str(v.org), str(v.stream));
      // Another organisation's stream reads as empty too: the answer never tells which streams exist elsewhere.
      if (history.length === 0) throw new CliFailure(`stream ${v.stream} has no events in organisation ${v.org}`);
      print({ stream: v.stream, events: history }, () => history.map((h) => `${h.revision.padStart(5)} ${h.recordedAt} ${h.type.padEnd(28)} user=${h.userId ?? '-'} client=${h.clientId ?? '-'}`).join('\n'));
    },
  },
  {
    name: 'replay', summary: 'the books as they stood at a time or position, in a read-only schema, with a trial balance',
    details: 'Give --as-of or --position. Interrupted (Ctrl-C), it stops between batches; running it again resumes.',
    options: {
      org: org(),
      'as-of': { type: 'string', value: 'TIMESTAMP', description: 'an ISO 8601 timestamp: the books as of then' },
      position: { type: 'string', value: 'COMMIT/PREPARE', description: 'an event store position: the books up to it' },
    },
    async run({ core, print }, v) {
      const asOf = typeof v['as-of'] === 'string' ? new Date(v['as-of']) : undefined;
      if (asOf && Number.isNaN(asOf.getTime())) throw new UsageError('ledger replay: --as-of must be an ISO 8601 timestamp');
      const position = typeof v.position === 'string' ? positionOf(v.position) : undefined;
      if (!asOf && !position) throw new UsageError('ledger replay: missing --as-of or --position (see ledger replay --help)');
      const abort = new AbortController();
      process.once('SIGINT', () => abort.abort());
      const result = await replayOrganisation(core.db.pool, core.store, PROJECTIONS, {
        organisationId: str(v.org), asOf, position, signal: abort.signal, onProgress: (n) => process.stderr.write(`\rreplaying: ${n} events read`),
      });
      process.stderr.write('\n');
      print(result, () => [
        `Books of ${v.org} as of ${v['as-of'] ?? v.position}: ${result.eventsApplied} events, last position ${result.lastPosition ?? '-'}`,
        `Read-only copy in schema ${result.schema} (drop it with: DROP SCHEMA ${result.schema} CASCADE)`,
        '', 'Trial balance', ...result.trialBalance.map((r) => `${r.code.padEnd(10)} ${r.name.slice(0, 34).padEnd(34)} ${String(r.debit).padStart(14)} ${String(r.credit).padStart(14)} ${String(r.balance).padStart(14)}`),
        `${'Totals'.padEnd(45)} ${String(result.totals.debit).padStart(14)} ${String(result.totals.credit).padStart(14)}`,
      ].join('\n'));
    },
  },
  {
    name: 'report', summary: 'a report as CSV (trial balance, third-party balance, balance sheet, P&L, KPIs): the rows its GraphQL root answers',
    details: '--input is the GraphQL input as JSON, e.g. {"exerciseId":"...","startDate":"2026-01-01","endDate":"2026-03-31"}.',
    positional: { name: 'REPORT', description: Object.keys(CSV_REPORTS).join(', ') },
    options: {
      org: org(),
      input: { type: 'string', value: 'JSON', description: 'the report\'s input, as its GraphQL root takes it', required: true },
      out: { type: 'string', value: 'FILE', description: 'write the CSV there (default: standard output)' },
    },
    async run({ core }, v, report) {
      await requireOrganisation(core, str(v.org));
      const env = { now: new Date(), organisation: () => core.commands.organisation(str(v.org)) };
      await writeReport(await reportCsv(core.db.pool, str(v.org), report ?? '', str(v.input), env), typeof v.out === 'string' ? v.out : undefined);
    },
  },
  {
    name: 'trigger create', summary: 'create an event-queue trigger (for a client) or an http-post webhook (prints its signing secret once)',
    details: 'event-queue needs --client-id; http-post needs --url, a public http(s) address (loopback with WEBHOOK_ALLOW_LOOPBACK=1).',
    options: {
      org: org(),
      type: { type: 'string', value: 'TYPE', description: 'the kind of trigger', required: true, choices: ['event-queue', 'http-post'] },
      'client-id': { type: 'string', value: 'CID', description: 'event-queue: the OAuth client whose queue receives the events' },
      url: { type: 'string', value: 'U', description: 'http-post: where the events are posted' },
      events,
      from: { type: 'string', value: 'START', description: 'where its queue starts: now (the default: events after its creation), beginning (the organisation\'s whole history) or an event store position COMMIT/PREPARE' },
    },
    async run({ core, config, print }, v) {
      const organisationId = str(v.org);
      const type = v.type as 'event-queue' | 'http-post';
      const needed = type === 'event-queue' ? 'client-id' : 'url';
      if (typeof v[needed] !== 'string') throw new UsageError(`ledger trigger create: missing --${needed} (a ${type} trigger needs it; see ledger trigger create --help)`);
      await requireOrganisation(core, organisationId);
      const from = parseTriggerStart(v.from);
      const target = { organisationId, type, events: csv(v.events), from, ...(type === 'event-queue' ? { clientId: str(v['client-id']) } : { url: str(v.url) }) };
      print(await createTrigger(core.db.pool, target, { allowLoopback: config.webhookAllowLoopback, store: core.store }));
    },
  },
  {
    name: 'trigger list', summary: 'list an organisation\'s triggers', options: { org: org() },
    async run({ core, print }, v) {
      const triggers = await listTriggers(core.db.pool, str(v.org));
      print({ triggers }, () => triggers.map((t) => `${t.id}  ${t.type.padEnd(11)} ${(t.clientId ?? t.url ?? '').padEnd(40)} ${t.events.length ? t.events.join(',') : '(all events)'}${t.disabledAt ? `  DISABLED ${t.disabledAt}: ${t.disabledReason}` : ''}`).join('\n') || 'no triggers');
    },
  },
  {
    name: 'trigger delete', summary: 'delete a trigger (its queued events go with it)', options: { org: org(), id: triggerId },
    async run({ core, print }, v) {
      if (!(await deleteTrigger(core.db.pool, str(v.org), str(v.id)))) throw new CliFailure(`no trigger ${v.id} in organisation ${v.org}`);
      print({ id: v.id, deleted: true });
    },
  },
  {
    name: 'trigger redrive', summary: 're-enable a disabled webhook; its queued events are due now', options: { org: org(), id: triggerId },
    async run({ core, print }, v) {
      const result = await redriveTrigger(core.db.pool, str(v.org), str(v.id));
      if (!result) throw new CliFailure(`no trigger ${v.id} in organisation ${v.org}`);
      print(result, () => `${result.id}: ${result.wasDisabled ? `re-enabled (was disabled: ${result.disabledReason})` : 'was not disabled'}; ${result.requeued} queued events due now`);
    },
  },
  {
    name: 'queue status', summary: 'per trigger: depth, oldest age, leased, disabled, dropped',
    options: { org: { ...org('only this organisation\'s triggers'), required: false } },
    async run({ core, print }, v) {
      const status = await queueStatus(core.db.pool, v.org as string | undefined);
      print({ triggers: status }, () => [
        `${'trigger'.padEnd(36)}  ${'type'.padEnd(11)} ${'client / url'.padEnd(40)} ${'depth'.padStart(7)} ${'oldest'.padStart(9)} ${'leased'.padStart(6)} ${'dropped'.padStart(7)}  state`,
        ...status.map((s) => `${s.triggerId}  ${s.type.padEnd(11)} ${(s.clientId ?? s.url ?? '').slice(0, 40).padEnd(40)} ${String(s.depth).padStart(7)} ${`${s.oldestAgeSeconds.toFixed(1)}s`.padStart(9)} ${String(s.leased).padStart(6)} ${String(s.dropped).padStart(7)}  ${s.disabledAt ? `DISABLED since ${s.disabledAt}: ${s.disabledReason}` : s.consecutiveFailures ? `failing (${s.consecutiveFailures} in a row)` : 'ok'}`),
      ].join('\n'));
    },
  },
  exportFec,
  verifyChain,
];

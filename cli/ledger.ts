/**
 * The operator CLI (`npx ledger ...`, DESIGN.md): same configuration as the server. `--json` prints
 * one JSON object. Long work (rebuilds) shows progress on stderr and resumes after an interruption.
 */
import { parseArgs } from 'node:util';
import { Role, Scope } from '../api/auth/identity.ts';
import { buildSdl } from '../api/graphql/sdl.ts';
import { PROJECTIONS, openCore } from '../api/service.ts';
import { loadConfig } from '../platform/config.ts';
import { projectionStatus, rebuildProjection, type ReadModelChecksum } from '../projections/rebuild.ts';
import { aggregateHistory } from './history.ts';
import { parsePosition } from '../eventstore/port.ts';
import { replayOrganisation } from '../projections/replay.ts';
import { listParked, retryParked } from '../projections/parked.ts';
import { fanoutProjection } from '../eventqueue/fanout.ts';
import { createTrigger, deleteTrigger, listTriggers, parseTriggerStart } from '../eventqueue/triggers.ts';
import { redriveTrigger } from '../eventqueue/webhooks/redrive.ts';
import { queueStatus } from '../eventqueue/webhooks/status.ts';
import { BusinessError } from '../domain/errors.ts';

const USAGE = `ledger <command> [--json]
  org create --name N --country CC [--features CORE,ACCOUNTING,SALES,EMPLOYEE_MANAGEMENT]
  user create --org ID --email E --password P [--role admin|accountant|viewer]
  client create --name N --redirect-uri U [--public]
  token create --org ID --user E --client CID --scope readonly|full_access
  schema print
  projections status
  projections rebuild [NAME|--all]
  projections retry [NAME] [--org ID]     (apply the events held behind a parked one, after a fix)
  history --org ID --stream STREAM_ID     (who did what, when, to one aggregate)
  replay --org ID --as-of TIMESTAMP|--position COMMIT/PREPARE
                                          (the books as they stood then, in a read-only schema)
  trigger create --org ID --type event-queue --client-id CID [--events T,...] [--from now|beginning|COMMIT/PREPARE]
  trigger create --org ID --type http-post --url U [--events T,...] [--from ...]   (prints the signing secret once)
  trigger list --org ID
  trigger delete --org ID --id TRIGGER
  trigger redrive --org ID --id TRIGGER   (re-enable a disabled webhook, its queued events due now)
  queue status [--org ID]                 (per trigger: depth, oldest age, leased, disabled, dropped)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    json: { type: 'boolean' }, name: { type: 'string' }, country: { type: 'string' }, org: { type: 'string' }, email: { type: 'string' },
    password: { type: 'string' }, role: { type: 'string' }, 'redirect-uri': { type: 'string' }, public: { type: 'boolean' }, user: { type: 'string' },
    client: { type: 'string' }, scope: { type: 'string' }, all: { type: 'boolean' }, stream: { type: 'string' }, help: { type: 'boolean' },
    'as-of': { type: 'string' }, position: { type: 'string' }, features: { type: 'string' },
    type: { type: 'string' }, 'client-id': { type: 'string' }, url: { type: 'string' }, events: { type: 'string' }, id: { type: 'string' }, from: { type: 'string' },
  },
});

function need(name: keyof typeof values): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new Error(`--${name} is required\n\n${USAGE}`);
  return v;
}

function out(result: unknown, human?: () => string): void {
  process.stdout.write(values.json || !human ? `${JSON.stringify(result, null, values.json ? 0 : 2)}\n` : `${human()}\n`);
}

/** Business errors of the trigger commands as `field: reason` rather than their dotted code. */
const readable = <T>(work: Promise<T>): Promise<T> =>
  work.catch((error) => {
    throw error instanceof BusinessError && error.params.reason ? new Error(`${error.params.field}: ${error.params.reason}`) : error;
  });

const [area, action, arg] = positionals;
if (!area || values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(area ? 0 : 1);
}

if (area === 'schema' && action === 'print') {
  process.stdout.write(buildSdl());
  process.exit(0);
}

const core = await openCore(loadConfig());
let code = 0;
try {
  const key = `${area} ${action ?? ''}`.trim();
  switch (key) {
    case 'org create': {
      const features = values.features?.split(',').map((f) => f.trim().toUpperCase()).filter(Boolean);
      const r = await core.commands.createOrganisation({}, { name: need('name'), country: need('country').toUpperCase(), ...(features ? { features } : {}) });
      out({ id: r.id });
      break;
    }
    case 'user create': {
      const role = (values.role ?? 'accountant') as Role;
      if (!Role.includes(role)) throw new Error(`--role must be one of ${Role.join(', ')}`);
      await core.commands.organisation(need('org'));
      out({ id: await core.identity.createUser(need('org'), need('email'), need('password'), role) });
      break;
    }
    case 'client create':
      out(await core.identity.createClient(need('name'), need('redirect-uri'), values.public ?? false));
      break;
    case 'token create': {
      const scope = need('scope') as Scope;
      if (!Scope.includes(scope)) throw new Error(`--scope must be one of ${Scope.join(', ')}`);
      out(await core.identity.issueToken(need('org'), need('user'), need('client'), scope));
      break;
    }
    case 'projections status': {
      const status = await projectionStatus(core.db.pool, [...PROJECTIONS, fanoutProjection]);
      const parked = await listParked(core.db.pool);
      const rebuilding = (s: (typeof status)[number]) => (s.rebuild ? `   rebuild under way or interrupted: ${s.rebuild.eventsDone} events done (run it again to resume)` : '');
      out({ projections: status, parked }, () => [
        ...status.map((s) => `${s.name.padEnd(16)} checkpoint ${s.checkpoint.padEnd(24)} behind ${s.eventsBehind} events (${s.lagSeconds.toFixed(3)} s)   updated ${s.updatedAt}${rebuilding(s)}`),
        ...parked.map((p) => `PARKED ${p.projection.padEnd(16)} organisation ${p.organisationId || '(none)'}: event ${p.eventId} (${p.eventType} at ${p.position}) failed, ${p.heldEvents} later events held, ${p.attempts} attempts: ${p.error}`),
      ].join('\n'));
      break;
    }
    case 'projections retry': {
      const all = [...PROJECTIONS, fanoutProjection];
      if (arg && !all.some((p) => p.name === arg)) throw new Error(`unknown projection ${arg}; known: ${all.map((p) => p.name).join(', ')}`);
      const results = await retryParked(core.db.pool, core.store, all, { projection: arg, organisationId: values.org });
      out({ retried: results }, () => results.map((r) => `${r.projection.padEnd(16)} ${r.organisationId || '(none)'}: ${r.error ? `still parked: ${r.error}` : `${r.applied} held events applied`}`).join('\n') || 'nothing parked');
      if (results.some((r) => r.error)) code = 1;
      break;
    }
    case 'projections rebuild': {
      const chosen = values.all || !arg ? PROJECTIONS : PROJECTIONS.filter((p) => p.name === arg);
      if (chosen.length === 0) throw new Error(`unknown projection ${arg}; known: ${PROJECTIONS.map((p) => p.name).join(', ')}`);
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
      out({ rebuilt: results }, () => Object.values(results).flat().map((c) => `${c.table.padEnd(28)} ${String(c.rows).padStart(9)} rows  checksum ${c.checksum}`).join('\n'));
      break;
    }
    case 'history': {
      const history = await aggregateHistory(core.store, need('org'), need('stream'));
      out({ stream: values.stream, events: history }, () => history.map((h) => `${h.revision.padStart(5)} ${h.recordedAt} ${h.type.padEnd(28)} user=${h.userId ?? '-'} client=${h.clientId ?? '-'}`).join('\n'));
      break;
    }
    case 'replay': {
      const asOf = values['as-of'] ? new Date(values['as-of']) : undefined;
      if (asOf && Number.isNaN(asOf.getTime())) throw new Error('--as-of must be an ISO timestamp');
      const position = values.position ? parsePosition(values.position) : undefined;
      if (!asOf && !position) throw new Error(`replay needs --as-of or --position\n\n${USAGE}`);
      const abort = new AbortController();
      process.once('SIGINT', () => abort.abort()); // stops between batches; running it again resumes
      const result = await replayOrganisation(core.db.pool, core.store, PROJECTIONS, {
        organisationId: need('org'), asOf, position, signal: abort.signal, onProgress: (n) => process.stderr.write(`\rreplaying: ${n} events read`),
      });
      process.stderr.write('\n');
      out(result, () => [
        `Books of ${values.org} as of ${values['as-of'] ?? values.position}: ${result.eventsApplied} events, last position ${result.lastPosition ?? '-'}`,
        `Read-only copy in schema ${result.schema} (drop it with: DROP SCHEMA ${result.schema} CASCADE)`,
        '', 'Trial balance', ...result.trialBalance.map((r) => `${r.code.padEnd(10)} ${r.name.slice(0, 34).padEnd(34)} ${String(r.debit).padStart(14)} ${String(r.credit).padStart(14)} ${String(r.balance).padStart(14)}`),
        `${'Totals'.padEnd(45)} ${String(result.totals.debit).padStart(14)} ${String(result.totals.credit).padStart(14)}`,
      ].join('\n'));
      break;
    }
    case 'trigger create': {
      const type = need('type');
      if (type !== 'event-queue' && type !== 'http-post') throw new Error('--type must be event-queue or http-post');
      const events = values.events?.split(',').map((e) => e.trim()).filter(Boolean);
      const organisationId = need('org');
      await core.commands.organisation(organisationId);
      const from = await readable(Promise.resolve().then(() => parseTriggerStart(values.from)));
      out(await readable(createTrigger(core.db.pool, type === 'event-queue'
        ? { organisationId, type, clientId: need('client-id'), events, from }
        : { organisationId, type, url: need('url'), events, from }, { store: core.store })));
      break;
    }
    case 'trigger list': {
      const triggers = await listTriggers(core.db.pool, need('org'));
      out({ triggers }, () => triggers.map((t) => `${t.id}  ${t.type.padEnd(11)} ${(t.clientId ?? t.url ?? '').padEnd(40)} ${t.events.length ? t.events.join(',') : '(all events)'}${t.disabledAt ? `  DISABLED ${t.disabledAt}: ${t.disabledReason}` : ''}`).join('\n') || 'no triggers');
      break;
    }
    case 'trigger delete': {
      if (!(await deleteTrigger(core.db.pool, need('org'), need('id')))) throw new Error(`no trigger ${values.id} in organisation ${values.org}`);
      out({ id: values.id, deleted: true });
      break;
    }
    case 'trigger redrive': {
      const result = await readable(redriveTrigger(core.db.pool, need('org'), need('id')));
      if (!result) throw new Error(`no trigger ${values.id} in organisation ${values.org}`);
      out(result, () => `${result.id}: ${result.wasDisabled ? `re-enabled (was disabled: ${result.disabledReason})` : 'was not disabled'}; ${result.requeued} queued events due now`);
      break;
    }
    case 'queue status': {
      const status = await queueStatus(core.db.pool, values.org);
      out({ triggers: status }, () => [
        `${'trigger'.padEnd(36)}  ${'type'.padEnd(11)} ${'client / url'.padEnd(40)} ${'depth'.padStart(7)} ${'oldest'.padStart(9)} ${'leased'.padStart(6)} ${'dropped'.padStart(7)}  state`,
        ...status.map((s) => `${s.triggerId}  ${s.type.padEnd(11)} ${(s.clientId ?? s.url ?? '').slice(0, 40).padEnd(40)} ${String(s.depth).padStart(7)} ${`${s.oldestAgeSeconds.toFixed(1)}s`.padStart(9)} ${String(s.leased).padStart(6)} ${String(s.dropped).padStart(7)}  ${s.disabledAt ? `DISABLED since ${s.disabledAt}: ${s.disabledReason}` : s.consecutiveFailures ? `failing (${s.consecutiveFailures} in a row)` : 'ok'}`),
      ].join('\n'));
      break;
    }
    default:
      throw new Error(`unknown command: ${key}\n\n${USAGE}`);
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  code = 1;
} finally {
  await core.store.close();
  await core.db.close();
}
process.exit(code);

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

const USAGE = `ledger <command> [--json]
  org create --name N --country CC [--features CORE,ACCOUNTING,SALES,EMPLOYEE_MANAGEMENT]
  user create --org ID --email E --password P [--role admin|accountant|viewer]
  client create --name N --redirect-uri U [--public]
  token create --org ID --user E --client CID --scope readonly|full_access
  schema print
  projections status
  projections rebuild [NAME|--all]
  history --org ID --stream STREAM_ID     (who did what, when, to one aggregate)
  replay --org ID --as-of TIMESTAMP|--position COMMIT/PREPARE
                                          (the books as they stood then, in a read-only schema)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    json: { type: 'boolean' }, name: { type: 'string' }, country: { type: 'string' }, org: { type: 'string' }, email: { type: 'string' },
    password: { type: 'string' }, role: { type: 'string' }, 'redirect-uri': { type: 'string' }, public: { type: 'boolean' }, user: { type: 'string' },
    client: { type: 'string' }, scope: { type: 'string' }, all: { type: 'boolean' }, stream: { type: 'string' }, help: { type: 'boolean' },
    'as-of': { type: 'string' }, position: { type: 'string' }, features: { type: 'string' },
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
      const status = await projectionStatus(core.db.pool, PROJECTIONS);
      out({ projections: status }, () => status.map((s) => `${s.name.padEnd(16)} checkpoint ${s.checkpoint.padEnd(24)} behind ${s.eventsBehind} events (${s.lagSeconds.toFixed(3)} s)   updated ${s.updatedAt}`).join('\n'));
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
          process.stderr.write(`\r${p.name.padEnd(14)} [${bar}] ${pct}% ${progress.done}/${progress.total} events ${rate}/s`);
        }, abort.signal);
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
      const result = await replayOrganisation(core.db.pool, core.store, PROJECTIONS, {
        organisationId: need('org'), asOf, position, onProgress: (n) => process.stderr.write(`\rreplaying: ${n} events read`),
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

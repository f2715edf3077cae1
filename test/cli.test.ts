/**
 * The operator CLI and `npm start` as a newcomer meets them: real processes against the test service's
 * database. Help for every command, one-line errors (exit 2) for mistakes on the command line, the
 * listings that let an operator make a new token without resetting, and a taken port named in one line.
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import t, { type Test } from 'tap';
import { commandHelp } from '../cli/args.ts';
import { COMMANDS } from '../cli/commands.ts';
import { freshDatabase } from './helpers/database.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { db } = api.service;
db.pool.on('error', () => {});
const env = { ...process.env, DATABASE_URL: db.url, DEMO: '0', LOG_LEVEL: 'error' };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
function run(args: string[], options: { entry?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', options.entry ?? 'cli/ledger.ts', ...args], { env: options.env ?? env, cwd: process.cwd(), timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
const ledger = (...args: string[]) => run(args);
const json = async (...args: string[]) => {
  const r = await ledger(...args, '--json');
  if (r.code !== 0) throw new Error(`ledger ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout);
};

/** One line on stderr, no stack trace, nothing on stdout. */
function oneLine(t: Test, r: Run, code: number, pattern: RegExp) {
  t.equal(r.code, code, `exit ${code}`);
  t.equal(r.stdout, '', 'nothing on stdout');
  t.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr.trim()}`);
  t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
  t.match(r.stderr.trim(), pattern);
}

t.test('ledger -h, --help and help print the commands; each command has its own help', async (t) => {
  const [short, long, word, none] = await Promise.all([ledger('-h'), ledger('--help'), ledger('help'), ledger()]);
  for (const r of [short, long, word]) {
    t.equal(r.code, 0);
    t.match(r.stdout, /^Usage: ledger <command>/);
    for (const c of COMMANDS) t.match(r.stdout, new RegExp(`^  ${c.name} +\\S`, 'm'), `lists ${c.name}`);
    t.equal(r.stderr, '');
  }
  t.equal(none.code, 2, 'no command is a usage error');
  t.match(none.stderr, /^Usage: ledger <command>/);

  const [own, viaHelp, short2] = await Promise.all([ledger('org', 'create', '--help'), ledger('help', 'org', 'create'), ledger('trigger', 'create', '-h')]);
  t.equal(own.code, 0);
  t.equal(viaHelp.stdout, own.stdout, 'ledger help <command> is the same help');
  t.match(own.stdout, /^Usage: ledger org create --name N --country CC \[--features F,\.\.\.\] \[--json\]\n/);
  t.match(own.stdout, /^ {2}--country CC +its country; one of: ES, FR, DE, GB, IE, US, CA \[required\]$/m, 'each option says what it means');
  t.notMatch(own.stdout, /trigger create/, 'not the global usage');
  t.match(short2.stdout, /^Usage: ledger trigger create --org ID --type TYPE \[--client-id CID\] \[--url U\]/);
  t.match(short2.stdout, /--url U +http-post: where the events are posted/);
  const rebuild = await ledger('projections', 'rebuild', '--help');
  t.match(rebuild.stdout, /^Usage: ledger projections rebuild \[NAME\] \[--all\] \[--json\]\n/);
  t.match(rebuild.stdout, /^ {2}NAME +the projection to rebuild \(organisations, /m, 'a positional argument is described too');
  // Every command (in process: a child each would only repeat the above): its usage line and every option described.
  for (const c of COMMANDS) {
    const help = commandHelp(c);
    t.match(help, new RegExp(`^Usage: ledger ${c.name}[ \\n]`), `${c.name}: its own usage line`);
    for (const name of Object.keys(c.options)) t.match(help, new RegExp(`^ {2}--${name}\\b.* \\S`, 'm'), `${c.name} --${name} is described`);
  }
});

t.test('mistakes on the command line: one line naming the problem, exit 2', async (t) => {
  const [typo, missing, noValue, country, feature, notId, unknown, area, stray, role] = await Promise.all([
    ledger('org', 'create', '--nme', 'Acme', '--country', 'FR'),
    ledger('user', 'create', '--email', 'a@example.com'),
    ledger('org', 'create', '--name'),
    ledger('org', 'create', '--name', 'Acme', '--country', 'XX'),
    ledger('org', 'create', '--name', 'Acme', '--country', 'fr', '--features', 'CORE,PAYROLL'),
    ledger('history', '--org', '0'.repeat(36), '--stream', 'x'),
    ledger('orgs', 'list'),
    ledger('org', 'remove'),
    ledger('org', 'list', 'everything'),
    ledger('token', 'create', '--org', api.organisationId, '--user', 'demo@example.com', '--client', api.clientId, '--scope', 'admin'),
  ]);
  oneLine(t, typo, 2, /^ledger org create: unknown option --nme \(see ledger org create --help\)$/);
  oneLine(t, missing, 2, /^ledger user create: missing --org, --password \(see ledger user create --help\)$/);
  oneLine(t, noValue, 2, /^ledger org create: --name needs a value/);
  oneLine(t, country, 2, /--country 'XX' is not supported; one of: ES, FR, DE, GB, IE, US, CA$/);
  oneLine(t, feature, 2, /--features 'PAYROLL' is not supported; each one of: CORE, ACCOUNTING, SALES, EMPLOYEE_MANAGEMENT$/);
  oneLine(t, notId, 2, /--org must be an id \(a UUID\)/);
  oneLine(t, unknown, 2, /^ledger: unknown command 'orgs' \(see ledger help\)$/);
  oneLine(t, area, 2, /^ledger: unknown command 'org remove'; org commands: org create, org list, org upgrade-chart$/);
  oneLine(t, stray, 2, /unexpected argument 'everything'/);
  oneLine(t, role, 2, /--scope 'admin' is not supported; one of: readonly, full_access$/);
});

t.test('org, client and user lists let an operator who lost the demo token make another', async (t) => {
  const created = await json('org', 'create', '--name', 'Listed Org', '--country', 'es');
  await json('user', 'create', '--org', created.id, '--email', 'lister@example.com', '--password', 'a-long-password', '--role', 'viewer');
  await api.service.daemon.waitFor(await api.service.store.committedHead!()); // the running service projects what the CLI wrote
  const [orgs, clients, users, members, humanOrgs] = await Promise.all([
    json('org', 'list'), json('client', 'list'), json('user', 'list'), json('user', 'list', '--org', created.id), ledger('org', 'list'),
  ]);
  t.same(orgs.organisations.find((o: any) => o.id === created.id), { id: created.id, name: 'Listed Org', country: 'ES' });
  t.ok(orgs.organisations.some((o: any) => o.id === api.organisationId), 'the demo organisation too');
  t.match(humanOrgs.stdout, new RegExp(`^${created.id}  ES  Listed Org$`, 'm'));
  const demoClient = clients.clients.find((c: any) => c.clientId === api.clientId);
  t.match(demoClient, { name: String, redirectUris: Array, public: false });
  t.notOk('secret' in demoClient || 'secretHash' in demoClient, 'no secret listed');
  const demo = users.users.find((u: any) => u.email === 'demo@example.com');
  t.same(demo.memberships.map((m: any) => [m.organisationId, m.role]), [[api.organisationId, 'admin']]);
  t.same(members.users.map((u: any) => u.email), ['lister@example.com'], 'user list --org: only that organisation\'s members');
  t.same(members.users[0].memberships, [{ organisationId: created.id, name: 'Listed Org', role: 'viewer' }]);

  // From the lists alone: a new token that works.
  const token = await json('token', 'create', '--org', demo.memberships[0].organisationId, '--user', demo.email, '--client', demoClient.clientId, '--scope', 'readonly');
  const res = await fetch(`${api.base}/ledger_accounts?items_per_page=1`, { headers: { Authorization: `Bearer ${token.access_token}`, 'X-Site': api.organisationId } });
  t.equal(res.status, 200, 'the new token reads the books');
});

t.test('history of a stream without events says so and exits non-zero', async (t) => {
  const [none, other, found] = await Promise.all([
    ledger('history', '--org', api.organisationId, '--stream', 'Ledger-no-such-stream'),
    ledger('history', '--org', '00000000-0000-0000-0000-000000000000', '--stream', `Organisation-${api.organisationId}`),
    json('history', '--org', api.organisationId, '--stream', `Organisation-${api.organisationId}`),
  ]);
  oneLine(t, none, 1, new RegExp(`^stream Ledger-no-such-stream has no events in organisation ${api.organisationId}$`));
  oneLine(t, other, 1, /has no events in organisation 00000000-/);
  t.ok(found.events.length > 0, 'a stream with events prints them');
});

t.test('an id in upper case names the same record (ids enter in their canonical form)', async (t) => {
  const upper = api.organisationId.toUpperCase();
  const [history, member] = await Promise.all([
    json('history', '--org', upper, '--stream', `Organisation-${api.organisationId}`),
    json('user', 'create', '--org', upper, '--email', 'upper@example.com', '--password', 'a-long-password', '--role', 'viewer'),
  ]);
  t.ok(history.events.length > 0, 'history finds the organisation\'s events');
  t.match(member, { id: String }, 'user create finds the organisation (it said "no organisation" before)');
});

t.test('business refusals are one readable line, exit 1', async (t) => {
  const missingOrg = await ledger('user', 'create', '--org', '00000000-0000-0000-0000-000000000000', '--email', 'x@example.com', '--password', 'a-long-password');
  oneLine(t, missingOrg, 1, /^no organisation 00000000-0000-0000-0000-000000000000 \(ledger org list shows them\)$/);
  t.equal((await db.pool.query(`SELECT 1 FROM users WHERE email = 'x@example.com'`)).rows.length, 0, 'no user made');
  const privateHook = await ledger('trigger', 'create', '--org', api.organisationId, '--type', 'http-post', '--url', 'http://10.0.0.1/hook');
  oneLine(t, privateHook, 1, /^url: refused target: 10\.0\.0\.1 is in the private range/);
});

t.test('npm start on a port in use says which, in one line, and exits 1', async (t) => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => blocker.close(resolve)));
  const port = (blocker.address() as net.AddressInfo).port;
  const fresh = await freshDatabase(t);
  const r = await run([], { entry: 'api/main.ts', env: { ...process.env, DATABASE_URL: fresh.url, PORT: String(port), HOST: '127.0.0.1', DEMO: '0', LOG_LEVEL: 'error' } });
  t.equal(r.code, 1, 'exit 1');
  t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
  t.match(r.stderr, new RegExp(`^127\\.0\\.0\\.1:${port} is already in use .*PORT`, 'm'), 'names HOST:PORT and the PORT variable');
  t.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr.trim()}`);
});

t.test('npm start on an address this machine does not have says so, in one line, and exits 1', async (t) => {
  const fresh = await freshDatabase(t);
  // 192.0.2.1 (TEST-NET-1) is on no interface here: listen fails with EADDRNOTAVAIL.
  const r = await run([], { entry: 'api/main.ts', env: { ...process.env, DATABASE_URL: fresh.url, PORT: '0', HOST: '192.0.2.1', DEMO: '0', LOG_LEVEL: 'error' } });
  t.equal(r.code, 1, 'exit 1');
  t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
  t.match(r.stderr, /^cannot listen on 192\.0\.2\.1:0 \(EADDRNOTAVAIL\): check HOST and PORT\.$/m);
  t.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr.trim()}`);
});

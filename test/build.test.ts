/**
 * The production build: `npm run build` compiles the service and the CLI to JavaScript, which runs on plain
 * node (no tsx, no dev dependency), as the Dockerfile's CMD runs it. Built into a folder of its own (removed
 * afterwards), so a developer's dist/ is neither used nor left stale.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { freshDatabase } from './helpers/database.ts';

const run = promisify(execFile);
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outName = `dist-test-${randomBytes(4).toString('hex')}`;
const out = path.join(root, outName);
t.teardown(() => fs.rmSync(out, { recursive: true, force: true }));
const packageJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
/**
 * A command as a shell runs it. tap's process tracking puts its loader in NODE_OPTIONS of every child
 * spawned here (and that loader cannot load tsc's extensionless ESM entry): the shell drops it.
 */
const plainly = (command: string, ...args: string[]): [string, string[]] => ['sh', ['-c', 'unset NODE_OPTIONS; exec "$@"', 'sh', command, ...args]];

/** The Dockerfile's CMD, with dist/ replaced by this test's output folder. */
function dockerCommand(): string[] {
  const line = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8').split('\n').filter((l) => l.startsWith('CMD ')).at(-1)!;
  return (JSON.parse(line.slice(4)) as string[]).map((arg) => arg.replace(/^dist\//, `${outName}/`));
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

t.test('npm run build compiles, with the files read at run time beside the modules', async (t) => {
  await run(...plainly('npm', 'run', 'build', '--', outName), { cwd: root });
  for (const file of ['api/main.js', 'cli/ledger.js', 'projections/engine/rebuild-worker.js', 'api/graphql/spec-types.graphql', 'api/graphql/graphiql/app.js', 'api/graphql/graphiql/page.css']) {
    t.ok(fs.existsSync(path.join(out, file)), file);
  }
  t.notOk(fs.existsSync(path.join(out, 'test')), 'no tests in the build');
});

t.test('the compiled code imports only node itself and production dependencies', async (t) => {
  const allowed = new Set([...Object.keys(packageJson.dependencies), ...builtinModules]);
  const needed = new Map<string, string>();
  for (const entry of fs.readdirSync(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js') || entry.parentPath.includes(`${path.sep}graphiql`)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = fs.readFileSync(file, 'utf8');
    // Static imports and re-exports (`import ... from`, `export ... from`, `import '...'`) and dynamic imports of a literal.
    const specifiers = text.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/gm);
    for (const match of specifiers) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
      if (!allowed.has(name)) needed.set(name, path.relative(out, file));
    }
  }
  t.same(Object.fromEntries(needed), {}, 'no dev dependency (tsx among them) is needed at run time');
});

t.test("the Dockerfile's command runs the compiled service: /health, a GraphQL query, GraphiQL's files", async (t) => {
  const [node, ...args] = dockerCommand();
  t.equal(node, 'node');
  const startFlags = (packageJson.scripts.start as string).split(' ').filter((a) => a.startsWith('--') && a !== '--import');
  t.same(args.filter((a) => a.startsWith('--')), startFlags, 'the V8 settings of npm start');
  const db = await freshDatabase(t);
  const port = await freePort();
  const child = spawn(...plainly(process.execPath, ...args), {
    cwd: root,
    env: { ...process.env, DATABASE_URL: db.url, DEMO: '1', DATA_DIR: path.join(out, 'data'), HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  t.teardown(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // The demo's token and organisation are printed once it listens.
  for (let waited = 0; !/Access token .*: \S+\n/.test(stdout) && child.exitCode === null && waited < 40_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  t.match(stdout, /Access token/, `it starts (stderr: ${stderr})`);
  const token = /Access token [^:]*: (\S+)/.exec(stdout)![1];
  const organisationId = /Demo organisation [^:]*: (\S+)/.exec(stdout)![1];
  const base = `http://127.0.0.1:${port}`;

  const health = await fetch(`${base}/health`);
  t.equal(health.status, 200);
  t.equal((await health.json()).status, 'ok');
  const answer = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'X-Site': organisationId },
    body: JSON.stringify({ query: '{ accountingEntries { totalCount } }' }),
  }).then((r) => r.json());
  t.same(answer.errors, undefined);
  t.ok(answer.data.accountingEntries.totalCount > 0, 'the demo books, read through the compiled read models');
  for (const asset of ['app.js', 'page.css']) t.equal((await fetch(`${base}/graphiql/${asset}`)).status, 200, `GraphiQL's ${asset}`);
});

t.test('the compiled CLI prints the schema', async (t) => {
  const { stdout } = await run(...plainly(process.execPath, path.join(out, 'cli/ledger.js'), 'schema', 'print'), { cwd: root });
  t.match(stdout, /type Query \{/);
});

t.test("a compiled rebuild's worker threads start on plain node, each with its projection", async (t) => {
  // A module file rather than --eval: worker threads inherit the process's flags, --input-type among them.
  const probe = path.join(out, 'start-rebuild-workers.mjs');
  fs.writeFileSync(probe, `
    const { PROJECTIONS } = await import('./modules/index.js');
    const { sourceOf } = await import('./projections/engine/projection.js');
    const { RebuildWorkers } = await import('./projections/engine/rebuild-workers.js');
    for (const projection of PROJECTIONS) await (await RebuildWorkers.start(projection, sourceOf(projection), 1)).close();
    process.stdout.write(PROJECTIONS.length + ' started');
  `);
  const { stdout } = await run(...plainly(process.execPath, probe), { cwd: root });
  t.match(stdout, /^[1-9]\d* started$/);
});

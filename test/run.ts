/**
 * `npm test`: runs the tap suite against a real PostgreSQL. Uses DATABASE_URL when set, otherwise
 * starts an embedded cluster under .tap/ (fresh for each run) and hands its URL to every test file.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../platform/embedded-postgres.ts';

// One cluster per run: concurrent runs (two terminals, parallel CI jobs) must not share a data directory.
// tap builds its plugin set from package.json's `tap.plugin` (we drop its TypeScript plugin, whose ts-node
// fork cannot load TypeScript 7, and load tsx instead); on a fresh clone that build must happen first.
const build = spawnSync('npx', ['tap', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const dataDir = path.resolve(`.tap/pg-data-${process.pid}`);
let url = process.env.DATABASE_URL;
let stop: (() => Promise<void>) | undefined;
let clusterDir: string | undefined;
if (!url) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  // Under root in a checkout the postgres user cannot reach, the cluster goes to the temporary directory
  // (cleared at boot), not /var/lib/ledger: it lives for this run only.
  const cluster = await startEmbeddedPostgres(dataDir, undefined, { clusterHome: os.tmpdir() });
  url = cluster.url;
  stop = cluster.stop;
  clusterDir = cluster.dir;
}
const tap = spawn('npx', ['tap', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url },
});
const code: number = await new Promise((resolve) => tap.on('exit', (c) => resolve(c ?? 1)));
if (stop) await stop();
for (const dir of [dataDir, clusterDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
process.exit(code);

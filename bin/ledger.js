#!/usr/bin/env node
// `npx ledger`: the CLI with the caller's arguments and environment. In a checkout with its development
// tools (tsx) it runs the TypeScript source, so it is never an older build than the code beside it; in a
// production install (`npm run build`, then dev dependencies pruned) it runs the compiled dist/cli/ledger.js.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// The same V8 heap settings as package.json's scripts. A young generation of 64 MiB (V8's default is 16):
// rebuilds and replays allocate short-lived objects by the million, and collecting them less often made
// a rebuild's event stage 10% faster. An old generation that starts at 256 MiB: otherwise V8 starts a
// full collection whenever the old generation has less room left than the young one holds, which with
// a heap of about 30 MiB is all the time (72 full collections in a rebuild of 1,000,000 events, 15 with
// it; its worker threads went from 25 to 2, and the event stage took 8-13% less CPU; about 190 MB more memory).
const V8_FLAGS = ['--max-semi-space-size=64', '--initial-old-space-size=256'];

function tsxCli() {
  try {
    return createRequire(import.meta.url).resolve('tsx/cli');
  } catch {
    return undefined;
  }
}

const tsx = tsxCli();
const compiled = path.join(root, 'dist/cli/ledger.js');
if (!tsx && !fs.existsSync(compiled)) {
  process.stderr.write(`ledger: neither tsx (a development install) nor ${compiled} (run \`npm run build\`) is there\n`);
  process.exit(1);
}
// (With tsx, the flags go after tsx's path: tsx starts node again, and passes on the flags it is given, not those of its own process.)
const args = tsx ? [tsx, ...V8_FLAGS, path.join(root, 'cli/ledger.ts')] : [...V8_FLAGS, compiled];
const result = spawnSync(process.execPath, [...args, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);

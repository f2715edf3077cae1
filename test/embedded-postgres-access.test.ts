import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../platform/embedded-postgres.ts';
import { blockedAncestor, systemUser } from '../platform/postgres-user-access.ts';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-access-'));
t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }));
fs.chmodSync(scratch, 0o755);

t.test('a 0700 directory on the way blocks another user; an open path does not', async (t) => {
  const home = path.join(scratch, 'home');
  fs.mkdirSync(path.join(home, 'project', 'data'), { recursive: true });
  fs.chmodSync(home, 0o700);
  const stranger = { uid: 64_000, gid: 64_000 };
  t.equal(blockedAncestor(path.join(home, 'project', 'data', 'pg'), stranger), home);
  fs.chmodSync(home, 0o711);
  t.equal(blockedAncestor(path.join(home, 'project', 'data', 'pg'), stranger), undefined);
  const owner = { uid: fs.statSync(home).uid, gid: 64_000 };
  fs.chmodSync(home, 0o700);
  t.equal(blockedAncestor(path.join(home, 'project', 'data', 'pg'), owner), undefined, 'the owner enters its own 0700 directory');
});

t.test('systemUser reads passwd entries', async (t) => {
  const passwd = path.join(scratch, 'passwd');
  fs.writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\npostgres:x:101:104::/var/lib/postgresql:/bin/bash\n');
  t.same(systemUser('postgres', passwd), { uid: 101, gid: 104 });
  t.equal(systemUser('nobody-here', passwd), undefined);
});

t.test('under root, a data directory inside a 0700 home fails at once, naming the directory', { skip: os.userInfo().uid !== 0 && 'only root runs the cluster as another user' }, async (t) => {
  const home = path.join(scratch, 'root-like');
  fs.mkdirSync(home);
  fs.chmodSync(home, 0o700);
  await t.rejects(startEmbeddedPostgres(path.join(home, 'data')), new RegExp(`cannot enter ${home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(mode 0700\\)`));
  t.notOk(fs.existsSync(path.join(home, 'data', 'pg', 'PG_VERSION')), 'no cluster was initialised');
});

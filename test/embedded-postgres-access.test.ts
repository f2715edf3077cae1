import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
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

const asRoot = { skip: os.userInfo().uid !== 0 && 'only root runs the cluster as another user' };

/** A directory only its owner enters, as `mktemp -d` makes it (and as /root is). */
function privateDirectory(): string {
  const dir = fs.mkdtempSync(path.join(scratch, 'private-'));
  fs.chmodSync(dir, 0o700);
  return dir;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

t.test('under root, DATA_DIR inside a 0700 directory: the cluster is kept where the postgres user reaches it, keeps its data, and rm -rf DATA_DIR resets it', asRoot, async (t) => {
  const dataDir = path.join(privateDirectory(), 'data');
  const clusterHome = path.join(scratch, 'clusters');
  const first = await startEmbeddedPostgres(dataDir, undefined, { clusterHome });
  t.teardown(() => first.stop());
  await query(first.url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$survives$$)');
  t.equal(fs.readlinkSync(path.join(dataDir, 'pg')), first.dir, 'DATA_DIR/pg records where the cluster is');
  t.equal(path.dirname(first.dir), clusterHome);
  await first.stop();

  const again = await startEmbeddedPostgres(dataDir, undefined, { clusterHome });
  t.teardown(() => again.stop());
  t.same(await query(again.url, 'SELECT v FROM kept'), [{ v: 'survives' }], 'persistent data survives a restart');
  await again.stop();

  fs.rmSync(dataDir, { recursive: true, force: true });
  const fresh = await startEmbeddedPostgres(dataDir, undefined, { clusterHome });
  t.teardown(() => fresh.stop());
  t.same(await query(fresh.url, `SELECT to_regclass('kept') AS kept`), [{ kept: null }], 'a removed DATA_DIR starts a fresh cluster');
  t.same(fs.readdirSync(clusterHome).sort(), [path.basename(first.dir), path.basename(fresh.dir)].sort(), 'the old cluster is kept beside the new one (a DATA_DIR moved aside would still link to it)');
  await fresh.stop();
});

t.test('under root, binaries the postgres user cannot reach run from a copy it can reach', asRoot, async (t) => {
  const installed = path.resolve(path.dirname(fileURLToPath(import.meta.resolve(`@embedded-postgres/${process.platform}-${process.arch}`))), '..');
  const platformPackage = path.join(privateDirectory(), 'platform-package');
  fs.cpSync(installed, platformPackage, { recursive: true, verbatimSymlinks: true });
  // A fixed place, so the loader's shim (keyed by it) is one across runs; emptied so the copy is made afresh.
  const cache = path.join(os.tmpdir(), 'ledger-postgres-binaries-test');
  fs.rmSync(cache, { recursive: true, force: true });
  t.teardown(() => fs.rmSync(cache, { recursive: true, force: true }));

  const cluster = await startEmbeddedPostgres(path.join(scratch, 'data-for-copied-binaries'), undefined, { platformPackage, cache });
  t.teardown(() => cluster.stop());
  t.same(await query(cluster.url, 'SELECT 1 AS one'), [{ one: 1 }]);
  const postmaster = Number(fs.readFileSync(path.join(cluster.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const binary = fs.readlinkSync(`/proc/${postmaster}/exe`);
  t.ok(binary.startsWith(cache + path.sep), `postgres runs from the cache (${binary})`);
  await cluster.stop();
});

t.test('under root, a cluster already in place inside a 0700 directory fails at once, naming the directory and what to do', asRoot, async (t) => {
  const home = privateDirectory();
  fs.mkdirSync(path.join(home, 'data', 'pg'), { recursive: true }); // made in place before, e.g. copied from elsewhere
  await t.rejects(startEmbeddedPostgres(path.join(home, 'data')), new RegExp(`cannot enter ${home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(mode 0700\\).*remove .*pg for a fresh cluster`));
  t.notOk(fs.existsSync(path.join(home, 'data', 'pg', 'PG_VERSION')), 'no cluster was initialised');
});

t.test('under root, a DATA_DIR moved aside keeps its cluster when a new DATA_DIR starts at the old path', asRoot, async (t) => {
  const parent = privateDirectory();
  const dataDir = path.join(parent, 'data');
  const clusterHome = path.join(scratch, 'clusters-moved');
  const first = await startEmbeddedPostgres(dataDir, undefined, { clusterHome });
  t.teardown(() => first.stop());
  await query(first.url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$old books$$)');
  await first.stop();
  fs.renameSync(dataDir, path.join(parent, 'data-old')); // `mv data data-old`: keeping the old books, starting new ones

  const fresh = await startEmbeddedPostgres(dataDir, undefined, { clusterHome });
  t.teardown(() => fresh.stop());
  t.same(await query(fresh.url, `SELECT to_regclass('kept') AS kept`), [{ kept: null }], 'the new DATA_DIR starts afresh');
  await fresh.stop();
  t.not(fresh.dir, first.dir, 'in a place of its own');

  const old = await startEmbeddedPostgres(path.join(parent, 'data-old'), undefined, { clusterHome });
  t.teardown(() => old.stop());
  t.same(await query(old.url, 'SELECT v FROM kept'), [{ v: 'old books' }], 'the moved DATA_DIR still has its books');
  await old.stop();
});

t.test('a symlink on the way is followed: the 0700 directory it leads through blocks', async (t) => {
  const home = path.join(scratch, 'linked-home');
  fs.mkdirSync(path.join(home, 'project', 'data'), { recursive: true });
  fs.chmodSync(home, 0o700);
  const open = path.join(scratch, 'open');
  fs.mkdirSync(open);
  fs.symlinkSync(path.join(home, 'project'), path.join(open, 'project'));
  t.equal(blockedAncestor(path.join(open, 'project', 'data', 'pg'), { uid: 64_000, gid: 64_000 }), home);
});

t.test('under root, a binary cache other users can write to is refused, not run', asRoot, async (t) => {
  const installed = path.resolve(path.dirname(fileURLToPath(import.meta.resolve(`@embedded-postgres/${process.platform}-${process.arch}`))), '..');
  const platformPackage = path.join(privateDirectory(), 'platform-package');
  fs.cpSync(installed, platformPackage, { recursive: true, verbatimSymlinks: true });
  const cache = path.join(scratch, 'shared-cache');
  fs.mkdirSync(cache);
  fs.chmodSync(cache, 0o777); // anyone could have put a "postgres" there
  await t.rejects(startEmbeddedPostgres(path.join(scratch, 'data-shared-cache'), undefined, { platformPackage, cache }), /shared-cache is not root's alone .*other users can write to it/);
  t.same(fs.readdirSync(cache), [], 'nothing copied into it');
});

import t from 'tap';
import { testCommands, type TestCommands } from './helpers/commands.ts';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const store = await PostgresEventStore.open(db.pool, db.url);
t.teardown(() => store.close());
// Two "processes": separate caches and locks over one event store.
const [locksA, locksB] = [new OrganisationLocks(db.url), new OrganisationLocks(db.url)];
t.teardown(() => Promise.all([locksA.close(), locksB.close()]));
const a = testCommands(new AggregateStore(store), locksA, db.pool);
const b = testCommands(new AggregateStore(store), locksB, db.pool);
const { id: organisationId } = await a.createOrganisation({}, { name: 'Concurrent SARL', country: 'FR' });
const ctx = { organisationId };
await a.createAccountingExercise(ctx, { startDate: '2026-01-01', endDate: '2026-12-31' });
const post = (c: TestCommands, amount: string) =>
  c.createAccountingEntryUsingCodes(ctx, { date: '2026-05-05', journalTypeCode: 'OD', accountingEntryLines: [{ subAccountCode: '512000', debitAmount: amount }, { subAccountCode: '101300', creditAmount: amount }] });

t.test('concurrent posts from two processes get unique, gap-free numbers', async (t) => {
  const results = await Promise.all(Array.from({ length: 40 }, (_, i) => post(i % 2 ? a : b, `${i + 1}.00`)));
  const numbers = results.map((r) => r.number!).sort((x, y) => x - y);
  t.same(numbers, Array.from({ length: 40 }, (_, i) => i + 1));
  // Reads see committed events once no older transaction is open (other test files share the cluster).
  let events: unknown[] = [];
  for (let waited = 0; events.length < 40 && waited < 5000; waited += 20) {
    events = await store.readAll({ commit: 0n, prepare: 0n }, { maxCount: 5000, filter: { eventTypes: ['AccountingEntryPosted'] } });
    if (events.length < 40) await new Promise((r) => setTimeout(r, 20));
  }
  t.equal(events.length, 40, 'one event per accepted command, none lost to a conflict');
});

t.test('a stale process catches up instead of deciding on old state', async (t) => {
  const account = await a.createAccountingAccount(ctx, { code: '512100', name: 'Banque 2' });
  await post(b, '1.00'); // b's organisation cache predates the new account
  await a.updateAccountingAccount(ctx, { id: account.id, deactivated: true });
  const refused = await b.createAccountingEntryUsingCodes(ctx, { date: '2026-05-06', journalTypeCode: 'OD', accountingEntryLines: [{ subAccountCode: '512100', debitAmount: '5' }, { subAccountCode: '101300', creditAmount: '5' }] }).catch((e) => e);
  t.equal(refused.code, 'accounting.businessErrors.accountDeactivated', 'b sees the deactivation made by a');
});

t.test('an account used by an entry cannot be deleted, even racing a post', async (t) => {
  const account = await a.createAccountingAccount(ctx, { code: '512200', name: 'Banque 3' });
  const [posted, deleted] = await Promise.allSettled([
    a.createAccountingEntryUsingCodes(ctx, { date: '2026-05-07', journalTypeCode: 'OD', accountingEntryLines: [{ subAccountCode: '512200', debitAmount: '5' }, { subAccountCode: '101300', creditAmount: '5' }] }),
    a.deleteAccountingAccount(ctx, { id: account.id }),
  ]);
  t.ok((posted.status === 'fulfilled') !== (deleted.status === 'fulfilled'), 'exactly one of the two wins');
});

t.test('... and racing a post from another process: never both', async (t) => {
  let postsWon = 0;
  let deletionsWon = 0;
  for (let i = 0; i < 25; i++) {
    const code = `5123${String(i).padStart(2, '0')}`;
    const account = await a.createAccountingAccount(ctx, { code, name: `Banque race ${i}` });
    await b.organisation(organisationId); // b knows the account: its post can go ahead at once
    const [posted, deleted] = await Promise.allSettled([
      b.createAccountingEntryUsingCodes(ctx, { date: '2026-05-08', journalTypeCode: 'OD', accountingEntryLines: [{ subAccountCode: code, debitAmount: '5' }, { subAccountCode: '101300', creditAmount: '5' }] }),
      a.deleteAccountingAccount(ctx, { id: account.id }),
    ]);
    t.ok((posted.status === 'fulfilled') !== (deleted.status === 'fulfilled'), `round ${i}: exactly one of the two wins`);
    if (posted.status === 'fulfilled') postsWon++;
    else deletionsWon++;
  }
  t.ok(postsWon + deletionsWon === 25, `posts won ${postsWon}, deletions won ${deletionsWon}`);
});

t.test('a refusal decided on a stale cache is decided again on the caught-up state before it is answered', async (t) => {
  await b.createProduct(ctx, { code: 'STALE-0', name: 'Known to b' }); // b caches the catalogue
  const { id } = await a.createProduct(ctx, { code: 'STALE-1', name: 'Made by a' });
  const updated = await b.updateProduct(ctx, { id, name: 'Renamed by b' }).catch((e) => e);
  t.equal(updated.code, undefined, `b finds the product a made (${updated.code ?? 'no refusal'})`);
  await a.deleteProduct(ctx, { id });
  const again = await b.deleteProduct(ctx, { id }).catch((e) => e);
  t.match(again.code, /NotFound|notFound/, 'and a refusal that holds on the caught-up state is still answered');
});

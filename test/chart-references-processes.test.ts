/**
 * A chart account's deletion in one process and a new reference to it in another: never both. Each process
 * has its own stream locks, so only the organisation's lock (referringToChart against the deletion's
 * exclusive hold) keeps the other's check from passing between the deletion's check and its append.
 */
import t, { type TAP } from 'tap';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { OrganisationLocks } from '../commands/organisation-locks.ts';
import { PostgresEventStore } from '../eventstore/postgres/store.ts';
import { SubjectKeys } from '../platform/subject-keys.ts';
import { testCommands, type TestCommands } from './helpers/commands.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);
const store = await PostgresEventStore.open(db.pool, db.url);
t.teardown(() => store.close());
await new SubjectKeys(db.pool).migrate(); // parties' personal data is sealed with their keys
const [locksA, locksB] = [new OrganisationLocks(db.url), new OrganisationLocks(db.url)];
t.teardown(() => Promise.all([locksA.close(), locksB.close()]));
const a = testCommands(new AggregateStore(store), locksA, db.pool);
const b = testCommands(new AggregateStore(store), locksB, db.pool);
const { id: organisationId } = await a.createOrganisation({}, { name: 'Carrera SL', country: 'ES' });
const ctx = { organisationId };

const ROUNDS = 20;
const PREFIX: Record<string, string> = { customer: '4309', product: '7009', paymentMean: '5729' };

/** Races `refer(account)` in process b against the account's deletion in process a, ROUNDS times. */
async function race(t: Pick<TAP, 'ok' | 'match' | 'comment'>, what: string, refer: (c: TestCommands, accountId: string, round: number) => Promise<unknown>) {
  let referred = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const { id } = await a.createAccountingAccount(ctx, { code: `${PREFIX[what]}${String(i).padStart(3, '0')}`, name: `Carrera ${i}` });
    await b.organisation(organisationId); // b knows the account: its check can pass at once
    // The deletion starts 0 to 9 ms later from round to round: the reference's check falls before it, in its window or after.
    const deletion = new Promise((r) => setTimeout(r, i % 10)).then(() => a.deleteAccountingAccount(ctx, { id }));
    const [made, deleted] = await Promise.allSettled([refer(b, id, i), deletion]);
    t.ok((made.status === 'fulfilled') !== (deleted.status === 'fulfilled'), `${what} round ${i}: the reference or the deletion, not both`);
    // The loser is refused for the race, not for anything else.
    const refusal = made.status === 'rejected' ? made.reason : deleted.status === 'rejected' ? deleted.reason : undefined;
    if (refusal) t.match(refusal.code, /^accounting\.businessErrors\.(accountNotFound|accountReferenced)$/, `${what} round ${i}: refused by the race`);
    if (made.status === 'fulfilled') referred++;
  }
  t.comment(`${what}: ${referred} references won, ${ROUNDS - referred} deletions`);
}

t.test('a customer naming the account', (t) => race(t, 'customer', (c, account, i) => c.createCustomer(ctx, { socialName: `Cliente ${i}`, defaultAccountingAccountId: account })));
t.test('a product naming the account', (t) => race(t, 'product', (c, account, i) => c.createProduct(ctx, { code: `P${i}`, name: 'Carrera', salesAccountingAccountId: account })));
t.test('a payment mean naming the account', (t) => race(t, 'paymentMean', (c, account, i) => c.createPaymentMean(ctx, { description: `Remesa ${i}`, code: `R${i}`, accountingAccountId: account })));

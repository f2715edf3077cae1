/**
 * Every accounting mutation that names a new thing answers a retry with the first attempt's id (and number),
 * read from the events it recorded, also in a process that never saw them, and appends nothing.
 */
import t from 'tap';
import { AggregateStore } from '../commands/aggregate-store.ts';
import { testCommands } from './helpers/commands.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { commands, mutate, store } = api.service;
const year = new Date().getUTCFullYear();
const lines = [{ subAccountCode: '5720000', debitAmount: '10.00' }, { subAccountCode: '7000000', creditAmount: '10.00' }];

const creations: [name: keyof typeof mutate, input: object][] = [
  ['createAccountingAccount', { code: '6290099', name: 'Retried' }],
  ['createJournalType', { code: 'RTY', name: 'Retried', type: 'GENERAL' }],
  ['createAccountingExercise', { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31` }],
  ['createAccountingEntryUsingCodes', { date: `${year}-04-04`, journalTypeCode: 'GEN', accountingEntryLines: lines }],
];

t.test('a retried creation answers the first attempt, from another process too, once', async (t) => {
  const events = async () => (await api.service.db.pool.query('SELECT count(*)::int AS n FROM es_events')).rows[0].n as number;
  for (const [name, input] of creations) {
    const ctx = { organisationId: api.organisationId, commandId: crypto.randomUUID() };
    const first = await mutate[name](ctx, input);
    const recorded = await events();
    const again = await mutate[name](ctx, input);
    const cold = testCommands(new AggregateStore(store), commands.locks, api.service.db.pool);
    const elsewhere = await cold[name](ctx, input);
    for (const [where, r] of [['same process', again], ['another process', elsewhere]] as const) {
      t.equal(r.id, first.id, `${name}, ${where}: the first attempt's id`);
      t.equal(r.number, first.number, `${name}, ${where}: and its number`);
    }
    t.equal(await events(), recorded, `${name}: nothing appended by the retries`);
  }
});

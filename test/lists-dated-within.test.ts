/**
 * Entries filtered on a period or an exercise are found by the period's dates as well (impliedDateRanges): the
 * rows must be exactly those the filter names, on the first and last day of a period, across exercises, with
 * `in`, `and` and `or`, and for a row dated at a server's midnight east of UTC by an older version.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const year = new Date().getUTCFullYear();
const lastOfFebruary = `${year}-02-${new Date(Date.UTC(year, 2, 0)).getUTCDate()}`;
const POST = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`;

const next = await api.gql(`mutation($v: AccountingExerciseCreateGLDtoInput!) { createAccountingExercise(input: $v) { id } }`, {
  v: { startDate: `${year + 1}-01-01`, endDate: `${year + 1}-12-31`, description: 'next' },
});
// Set-up throws rather than asserts: tap ends a file's root test once its top level goes idle.
const refused = (r: any, what: string) => { if (r.errors) throw new Error(`${what}: ${JSON.stringify(r.errors)}`); };
refused(next, 'next year');
const dates = [`${year}-02-01`, lastOfFebruary, `${year}-03-01`, `${year}-03-31`, `${year}-12-31`, `${year + 1}-01-01`, `${year + 1}-01-31`];
for (const [n, date] of dates.entries()) {
  const r = await api.gql(POST, {
    v: { date, journalTypeCode: n % 2 ? 'GEN' : 'BAN', description: date, accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '1.00' }, { subAccountCode: '1000000', creditAmount: '1.00' }] },
  });
  refused(r, `posting on ${date}`);
}

// Entries as a version before UTC dates stored them on servers outside UTC: 1 March at UTC+2 (22:00 the day
// before), 31 March at UTC-5 (05:00 that day).
const entryOn = async (day: string) => (await api.gql(`{ accountingEntries(where: { description: { eq: "${day}" } }) { nodes { id } } }`)).data.accountingEntries.nodes[0].id as string;
const [march1, march31] = [await entryOn(`${year}-03-01`), await entryOn(`${year}-03-31`)];
await api.service.db.pool.query(`UPDATE accounting_entries SET date = date - interval '2 hours' WHERE id = $1`, [march1]);
await api.service.db.pool.query(`UPDATE accounting_entries SET date = date + interval '5 hours' WHERE id = $1`, [march31]);

interface Entry { id: string; date: string; accountingPeriodId: string; accountingExerciseId: string; journalType: { id: string; code: string } }
const FIELDS = 'totalCount nodes { id date accountingPeriodId accountingExerciseId journalType { id code } }';
const all: Entry[] = (await api.gql(`{ accountingEntries(first: 500) { ${FIELDS} } }`)).data.accountingEntries.nodes;

async function ids(where: string, variables: Record<string, string>) {
  const declared = Object.keys(variables).map((name) => `$${name}: UUID`).join(', ');
  const r = await api.gql(`query${declared ? `(${declared})` : ''} { accountingEntries(first: 500, where: ${where}) { ${FIELDS} } }`, variables);
  t.equal(r.errors, undefined, where);
  const nodes: Entry[] = r.data.accountingEntries.nodes;
  t.equal(r.data.accountingEntries.totalCount, nodes.length, `${where}: totalCount is the rows`);
  return nodes.map((e) => e.id).sort();
}
const expected = (keep: (e: Entry) => boolean) => all.filter(keep).map((e) => e.id).sort();
const periodOf = (day: string) => all.find((e) => e.date.startsWith(day))?.accountingPeriodId;

t.test('one period: its first and last day, and nothing of its neighbours', async (t) => {
  for (const day of [`${year}-02-01`, `${year}-03-31`, `${year}-12-31`, `${year + 1}-01-01`, `${year}-01-10`]) {
    const period = periodOf(day)!;
    t.ok(period, `a period on ${day}`);
    const found = await ids('{ accountingPeriodId: { eq: $a } }', { a: period });
    t.same(found, expected((e) => e.accountingPeriodId === period), `the period of ${day}`);
    t.ok(found.length >= 1, `${found.length} entries in the period of ${day}`);
  }
  t.same(await ids('{ accountingPeriodId: { eq: $a } }', { a: randomUUID() }), [], 'an unknown period has none');
});

t.test("rows dated at a server's midnight east or west of UTC stay in their period", async (t) => {
  const march = all.find((e) => e.id === march1)!.accountingPeriodId;
  const found = await ids('{ accountingPeriodId: { eq: $a } }', { a: march });
  t.ok(found.includes(march1), '1 March, stored the evening before, found in March');
  t.ok(found.includes(march31), '31 March, stored that morning, found in March');
  t.same(found, expected((e) => e.accountingPeriodId === march));
  const february = periodOf(`${year}-02-01`)!;
  t.notOk((await ids('{ accountingPeriodId: { eq: $a } }', { a: february })).includes(march1), 'not in February');
});

t.test('exercises, in, and, or', async (t) => {
  const [first, second] = [periodOf(`${year}-01-10`)!, periodOf(`${year + 1}-01-01`)!];
  const exercises = [...new Set(all.map((e) => e.accountingExerciseId))];
  t.equal(exercises.length, 2);
  for (const exercise of exercises) {
    t.same(await ids('{ accountingExerciseId: { eq: $a } }', { a: exercise }), expected((e) => e.accountingExerciseId === exercise), 'one exercise');
  }
  const both = (e: Entry) => e.accountingPeriodId === first || e.accountingPeriodId === second;
  t.same(await ids('{ accountingPeriodId: { in: [$a, $b] } }', { a: first, b: second }), expected(both), 'in: January of both years');
  t.same(await ids('{ or: [{ accountingPeriodId: { eq: $a } }, { accountingPeriodId: { eq: $b } }] }', { a: first, b: second }), expected(both), 'or: the same');
  const bank = all.find((e) => e.journalType.code === 'BAN')!.journalType.id;
  t.same(
    await ids('{ and: [{ accountingExerciseId: { eq: $a } }, { or: [{ accountingPeriodId: { eq: $b } }, { journalTypeId: { eq: "' + bank + '" } }] }] }', { a: exercises[0], b: second }),
    expected((e) => e.accountingExerciseId === exercises[0] && (e.accountingPeriodId === second || e.journalType.id === bank)),
    'and over an or: the or implies nothing',
  );
  t.same(
    await ids('{ and: [{ accountingPeriodId: { eq: $a } }, { accountingExerciseId: { eq: $b } }] }', { a: first, b: all.find((e) => e.accountingPeriodId === second)!.accountingExerciseId }),
    [],
    'a period and another year: none',
  );
});

t.test('empty, null and repeated conditions', async (t) => {
  const [first, second] = [periodOf(`${year}-01-10`)!, periodOf(`${year + 1}-01-01`)!];
  t.same(await ids('{ accountingPeriodId: { in: [] } }', {}), [], 'in nothing: none');
  t.same(await ids('{ accountingPeriodId: { eq: null } }', {}), [], 'eq null: none (every entry has a period)');
  t.same(
    await ids('{ and: [{ accountingPeriodId: { in: [$a, $b] } }, { accountingPeriodId: { eq: $b } }] }', { a: first, b: second }),
    expected((e) => e.accountingPeriodId === second),
    'the second condition on the period still applies',
  );
});

const CLOSE = `mutation($id: UUID!) { closeAccountingPeriod(input: { id: $id }) { id } }`;
const closedIds = async () => {
  const r = await api.gql(`{ accountingEntries(first: 500, where: { isClosed: { eq: true } }) { nodes { id } } }`);
  refused(r, 'closed entries');
  return (r.data.accountingEntries.nodes as { id: string }[]).map((e) => e.id).sort();
};

t.test("a period's close marks its entries, found by its dates, and no others", async (t) => {
  const march = all.find((e) => e.id === march1)!.accountingPeriodId;
  t.equal((await api.gql(CLOSE, { id: march })).errors, undefined, 'March closed');
  const closed = await closedIds();
  t.same(closed, expected((e) => e.accountingPeriodId === march), "March's entries, and only them");
  t.ok(closed.includes(march1) && closed.includes(march31), "with the rows dated at a server's midnight");
});

// Last: it removes a period's row, as when a rebuild of the entries alone runs ahead of the periods' projection.
t.test("a period whose row is missing still has its entries", async (t) => {
  const [december, next] = [periodOf(`${year}-12-31`)!, periodOf(`${year + 1}-01-01`)!];
  await api.service.db.pool.query('DELETE FROM accounting_periods WHERE id = $1', [december]);
  t.same(await ids('{ accountingPeriodId: { eq: $a } }', { a: december }), expected((e) => e.accountingPeriodId === december), 'eq');
  const either = (e: Entry) => e.accountingPeriodId === december || e.accountingPeriodId === next;
  t.same(await ids('{ accountingPeriodId: { in: [$a, $b] } }', { a: next, b: december }), expected(either), 'in, with one row found');
  const before = await closedIds();
  t.equal((await api.gql(CLOSE, { id: december })).errors, undefined, 'December closed');
  t.same(await closedIds(), [...before, ...expected((e) => e.accountingPeriodId === december)].sort(), "a close still marks the period's entries");
});

t.test('a close marks a row and its period written by older versions in two different zones', async (t) => {
  // The period at a server's midnight west of UTC (08:00 on the 1st), the entry at one east of it (15:00 the day before).
  const january = periodOf(`${year + 1}-01-01`)!;
  const entry = await entryOn(`${year + 1}-01-01`);
  await api.service.db.pool.query(`UPDATE accounting_periods SET start_date = start_date + interval '8 hours' WHERE id = $1`, [january]);
  await api.service.db.pool.query(`UPDATE accounting_entries SET date = date - interval '9 hours' WHERE id = $1`, [entry]);
  t.equal((await api.gql(CLOSE, { id: january })).errors, undefined, 'January closed');
  t.ok((await closedIds()).includes(entry), 'its 1 January entry is closed');
  t.same((await closedIds()).filter((id) => all.find((e) => e.id === id)?.accountingPeriodId === january), expected((e) => e.accountingPeriodId === january), "all of January's entries");
});

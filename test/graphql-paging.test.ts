/**
 * pageInfo comes from the rows, not from the stored count: when read_model_counts disagrees with the rows (written
 * by hand here), a client following hasNextPage/endCursor still reads every row once and stops, and a page
 * without rows never claims a next (or previous) page.
 */
import t from 'tap';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const pool = api.service.db.pool;
const PAGE = `query($after: String) { accountingEntries(first: 3, after: $after) { totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;

async function setStoredCount(n: number) {
  const r = await pool.query(`UPDATE read_model_counts SET n = $2 WHERE table_name = 'accounting_entries' AND organisation_id = $1 AND field = ''`, [api.organisationId, n]);
  if (r.rowCount !== 1) throw new Error('no stored count for accounting_entries');
}

/** Follows pageInfo as a client would, at most `limit` pages. */
async function followAll(limit = 10) {
  const ids: string[] = [];
  let after: string | null = null;
  for (let pages = 1; pages <= limit; pages++) {
    const r: any = await api.gql(PAGE, { after });
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    const c = r.data.accountingEntries;
    ids.push(...c.nodes.map((n: any) => n.id));
    if (!c.pageInfo.hasNextPage) return { ids, pages };
    after = c.pageInfo.endCursor;
  }
  return { ids, pages: Infinity };
}

const { rows } = await pool.query(`SELECT count(*)::int AS n FROM accounting_entries WHERE organisation_id = $1`, [api.organisationId]);
const actual: number = rows[0].n;

t.test('a stored count above the rows: the client stops after the last row', async (t) => {
  await setStoredCount(actual + 50);
  const { ids, pages } = await followAll();
  t.equal(pages, Math.ceil(actual / 3), 'stops at the last page');
  t.equal(new Set(ids).size, actual, 'every row once');

  const past = await api.gql(PAGE, { after: Buffer.from(String(actual + 10)).toString('base64') });
  t.same(past.data.accountingEntries.nodes, []);
  t.same(past.data.accountingEntries.pageInfo, { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null }, 'a page without rows claims no other page');
});

t.test('a stored count below the rows: hasNextPage still tells of the rows after', async (t) => {
  await setStoredCount(1);
  const { ids, pages } = await followAll();
  t.equal(new Set(ids).size, actual, 'every row, though the count says 1');
  t.equal(pages, Math.ceil(actual / 3));
});

t.test('an exact count: pages as before', async (t) => {
  await setStoredCount(actual);
  const first = await api.gql(PAGE, { after: null });
  t.same(first.data.accountingEntries.pageInfo.hasNextPage, actual > 3);
  t.same(first.data.accountingEntries.pageInfo.hasPreviousPage, false);
  const zero = await api.gql(`{ accountingEntries(first: 0) { nodes { id } pageInfo { hasNextPage endCursor } } }`);
  t.same(zero.data.accountingEntries.pageInfo, { hasNextPage: false, endCursor: null }, 'first: 0 is an empty page, claiming nothing');
});

/**
 * Bulk loads (COPY, binary when it can) must store exactly what live writes (INSERT with text
 * parameters, parsed by PostgreSQL) store for the same rows, or a rebuild's read models would differ
 * from the live ones. Property test: random rows of every column type, written both ways, compared as
 * PostgreSQL prints them.
 */
import t, { type Test } from 'tap';
import fc from 'fast-check';
import { BINARY_COPY_LIMITS, BinaryCopyWriter } from '../projections/engine/copy-binary.ts';
import { columnTypes, f, rowValues, tableDdl, type Resource } from '../projections/engine/resource.ts';
import { migrateReadModels } from '../projections/engine/schema.ts';
import { Writes } from '../projections/engine/writes.ts';
import { inTransaction } from '../platform/database.ts';
import { freshDatabase } from './helpers/database.ts';

const db = await freshDatabase(t);

/** The rows as binary COPY data, or undefined when one of them has no binary form (then all would go as text). */
function encodeBinaryCopy(types: readonly string[], rows: readonly (readonly unknown[])[]): Buffer[] | undefined {
  const writer = BinaryCopyWriter.for(types);
  if (!writer) return undefined;
  for (const row of rows) if (!writer.add(row)) return undefined;
  return writer.finish();
}

const Sample: Resource = {
  typeName: 'Sample',
  table: 'copy_sample',
  scope: 'global',
  fields: [
    f.uuid('id'),
    f.uuid('account'), // drawn from a few: the encoder remembers recent ids, and must not mix them up
    f.int('ordinal'),
    f.string('label'),
    f.bool('flag'),
    f.decimal('amount'),
    f.dateTime('at'),
    { ...f.string('day'), scalar: 'Date' },
  ],
};
const LIVE = 'copy_live';
const COPIED = 'copy_copied';
await migrateReadModels(db.pool, []); // the reader role the tables grant to
for (const table of [LIVE, COPIED]) await db.pool.query(tableDdl(Sample, table));

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const isoDay = fc.record({ y: fc.integer({ min: 100, max: 9999 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
  .map(({ y, m, d }) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
const instant = fc.date({ min: new Date('1800-01-01T00:00:00Z'), max: new Date('2300-01-01T00:00:00Z'), noInvalidDate: true });
// Mostly the forms the service writes (which go binary), sometimes others (which go as text).
const timestamp = fc.oneof(
  { arbitrary: instant.map((d) => d.toISOString()), weight: 6 },
  { arbitrary: instant, weight: 2 }, // Date objects: live writes send them with the process's offset
  { arbitrary: isoDay, weight: 4 },
  fc.tuple(isoDay, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999_999 }), fc.constantFrom('', 'Z', '+05:30', '-08', '+0100', ' '))
    .map(([day, h, m, us, zone]) => `${day}${zone === ' ' ? ' ' : 'T'}${pad(h, 2)}:${pad(m, 2)}:07.${pad(us, 6)}${zone === ' ' ? '' : zone}`),
  { arbitrary: fc.constantFrom('January 8, 2026 04:05:06', '2026-02-29', '2024-02-29T23:59:59.5+00'), weight: 1 }, // PostgreSQL's to read (or refuse)
);
const decimal = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom('', '-', '+'), fc.stringMatching(/^\d{0,12}$/), fc.stringMatching(/^\d{0,12}$/), fc.constantFrom('', 'e3', 'E-2', 'e+1', 'e-9'))
    .filter(([, int, frac]) => int.length + frac.length > 0)
    .map(([sign, int, frac, exponent]) => `${sign}${int}${frac === '' ? '' : `.${frac}`}${exponent}`) },
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('0', '-0.00', '0.000', '10000', '0.0001', '99990000.00010000', 'NaN', ' 1.5'),
);
const uuid = fc.tuple(fc.uuid(), fc.constantFrom('canonical', 'upper', 'undashed')).map(([id, spelling]) =>
  spelling === 'upper' ? id.toUpperCase() : spelling === 'undashed' ? id.replaceAll('-', '') : id);
const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constantFrom('tab\there', 'line\nnext', 'back\\slash', 'ümlaut €', '\r'));
const ACCOUNTS = ['a6bd1697-220d-5f51-b484-b3db56064ec1', '5bc306d3-fed6-500c-9dbe-f5d623692444', '91a06591-2373-5c29-966b-05678e913681'];
const row = fc.record({
  account: fc.option(fc.constantFrom(...ACCOUNTS), { nil: null, freq: 8 }),
  label: fc.option(text),
  flag: fc.option(fc.boolean()),
  amount: fc.option(decimal),
  at: fc.option(timestamp),
  day: fc.option(fc.oneof({ arbitrary: isoDay, weight: 10 }, fc.constantFrom('2026-1-5', '2023-02-29'))),
});

/** Writes the rows as live (INSERT with parameters) and as a rebuild (COPY); either both refuse them or both store the same. */
async function writeBothWays(t: Test, rows: Record<string, unknown>[], encodeAfter: readonly boolean[] = []): Promise<'stored' | 'refused'> {
  const attempt = async (table: string, copyFromRows: number, encodeAfter: readonly boolean[]) => {
    const writes = new Writes();
    for (const [i, r] of rows.entries()) {
      writes.insert(Sample, table, r);
      if (encodeAfter[i]) writes.encodeCopies(); // as a rebuild's worker does between slices
    }
    return inTransaction(db.pool, (client) => writes.flush(client, { copyFromRows })).then(() => 'stored' as const, () => 'refused' as const);
  };
  const [live, copied] = [await attempt(LIVE, Number.MAX_SAFE_INTEGER, []), await attempt(COPIED, 1, encodeAfter)];
  t.equal(copied, live, 'COPY refuses exactly what INSERT refuses');
  return live;
}

const printed = (table: string) => inTransaction(db.pool, async (client) => {
  await client.query(`SET LOCAL TimeZone = 'UTC'`);
  return (await client.query(`SELECT t::text AS row FROM ${table} t ORDER BY ordinal`)).rows.map((r: { row: string }) => r.row);
});

t.test('binary COPY stores what INSERT stores, for every column type', async (t) => {
  let binary = 0;
  let ordinal = 0;
  await fc.assert(
    // Each row maybe followed by encoding the rows so far (Writes.encodeCopies), binary or text row by row.
    fc.asyncProperty(fc.array(fc.tuple(uuid, row, fc.boolean()), { minLength: 1, maxLength: 8 }), async (generated) => {
      const rows = generated.map(([id, r]) => ({ ...r, id, ordinal: ordinal++ }));
      if (encodeBinaryCopy(columnTypes(Sample), rows.map((r) => rowValues(Sample, r).values))) binary++;
      await writeBothWays(t, rows, generated.map(([, , encode]) => encode));
      return true;
    }),
    { numRuns: 300 },
  );
  t.same(await printed(COPIED), await printed(LIVE), 'same rows, as PostgreSQL prints them');
  t.ok(binary > 60, `binary COPY was used for ${binary} of 300 batches (the rest went as text)`);
});

t.test('values with no certain binary form go as text', async (t) => {
  const values = (r: Record<string, unknown>) => [rowValues(Sample, { id: '8f80a4ea-4f7e-457e-948c-a16dbccb82bf', ordinal: 1, ...r }).values];
  const types = columnTypes(Sample);
  t.ok(encodeBinaryCopy(types, values({ label: 'x', flag: true, amount: '2.01', at: '2026-11-22T16:38:10.978Z', day: '2026-01-01' })), 'canonical values: binary');
  for (const odd of [{ at: new Date('0000-06-01T00:00:00Z') }, { at: new Date('+010000-01-01T00:00:00Z') }, { at: new Date(NaN) }, { at: 'January 8, 2026 04:05:06' }, { amount: 'NaN' }, { amount: ' 1.5' }, { day: '2026-1-5' }, { at: '0099-01-01' }, { ordinal: 1.5 }, { flag: 't' }]) {
    t.equal(encodeBinaryCopy(types, values(odd)), undefined, `${JSON.stringify(odd)}: text`);
  }
});

t.test('a row with no binary form adds nothing, even one that spilled into a new chunk', async (t) => {
  const types = columnTypes(Sample);
  const values = (r: Record<string, unknown>) => rowValues(Sample, { id: '8f80a4ea-4f7e-457e-948c-a16dbccb82bf', ordinal: 1, ...r }).values;
  const long = (n: number) => 'x'.repeat(n);
  // Text reserves room for 3 bytes a character: the first row gets a buffer of its own, a bit larger than
  // a chunk, and the odd row's label no longer fits in what is left of it.
  const label = Math.ceil(BINARY_COPY_LIMITS.chunkBytes / 3) + 1_000;
  const first = values({ label: long(label), amount: '1.00' });
  // Its label goes into a new chunk; its amount, written after, has no binary form.
  const odd = values({ label: long(label), amount: 'NaN' });
  const last = values({ label: 'after', amount: '2.00', at: '2026-11-22T16:38:10.978Z' });
  const writer = BinaryCopyWriter.for(types)!;
  t.ok(writer.add(first), 'the first row goes binary');
  t.notOk(writer.add(odd), 'the odd row does not');
  t.ok(writer.add(last), 'the next one does');
  t.equal(writer.rows, 2, 'two rows added');
  t.ok(Buffer.concat(writer.finish()).equals(Buffer.concat(encodeBinaryCopy(types, [first, last])!)), 'the same bytes as the two rows alone');
});

/**
 * Every date input of every mutation takes ISO 8601 only (a date, or a date-time with seconds, an
 * optional fraction and a zone), refusing anything else with invalidInput naming the field and
 * appending nothing; a date-time's accounting date is the calendar date in its own offset.
 */
import { GraphQLInputObjectType, GraphQLList, GraphQLNonNull, buildSchema, type GraphQLInputType } from 'graphql';
import t from 'tap';
import { buildSdl } from '../api/graphql/sdl.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const year = new Date().getUTCFullYear();
const journalTypeId = (await api.gql(`{ journalTypes(where: { code: { eq: "GEN" } }) { nodes { id } } }`)).data.journalTypes.nodes[0].id;
const accounts = (await api.gql(`{ accountingAccounts(where: { code: { in: ["1000000", "5720000"] } }, order: [{ code: ASC }]) { nodes { id } } }`)).data.accountingAccounts.nodes;

/** Each mutation with a date input: a valid input, and the paths of its date fields. */
const WITH_DATES: Record<string, { input: string; valid: Record<string, unknown>; dates: string[] }> = {
  createAccountingExercise: { input: 'AccountingExerciseCreateGLDtoInput', valid: { startDate: `${year + 3}-01-01`, endDate: `${year + 3}-12-31` }, dates: ['startDate', 'endDate'] },
  createAccountingEntryUsingCodes: {
    input: 'AccountingEntryCreateUsingCodesGLDtoInput',
    valid: { date: `${year}-03-31`, documentDate: `${year}-03-30`, journalTypeCode: 'GEN', accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: '1' }, { subAccountCode: '1000000', creditAmount: '1' }] },
    dates: ['date', 'documentDate'],
  },
  createAccountingEntryUsingIds: {
    input: 'AccountingEntryCreateUsingIdsGLDtoInput',
    valid: { date: `${year}-03-31`, documentDate: `${year}-03-30`, journalTypeId, accountingEntryLines: [{ subAccountId: accounts[1].id, debitAmount: '1' }, { subAccountId: accounts[0].id, creditAmount: '1' }] },
    dates: ['date', 'documentDate'],
  },
  updateAccountingLockDates: { input: 'AccountingLockDatesUpdateGLDtoInput', valid: { lockDate: `${year - 5}-12-31`, hardLockDate: `${year - 6}-12-31` }, dates: ['lockDate', 'hardLockDate'] },
};

function datePaths(type: GraphQLInputType, at = '', depth = 0): string[] {
  const named = type instanceof GraphQLNonNull || type instanceof GraphQLList ? datePaths(type.ofType, at, depth) : undefined;
  if (named) return named;
  if (type instanceof GraphQLInputObjectType && depth < 5) {
    return Object.values(type.getFields()).flatMap((f) => datePaths(f.type, at ? `${at}.${f.name}` : f.name, depth + 1));
  }
  return 'name' in type && type.name === 'DateTime' ? [at] : [];
}

t.test('the mutations with date inputs are the ones this test covers', async (t) => {
  const mutations = buildSchema(buildSdl()).getMutationType()!.getFields();
  const found = Object.fromEntries(Object.values(mutations).map((m) => [m.name, datePaths(m.args[0].type)]).filter(([, paths]) => paths.length > 0));
  t.same(found, Object.fromEntries(Object.entries(WITH_DATES).map(([name, m]) => [name, m.dates])));
});

t.test('a date that is not ISO 8601 is refused, naming the field, and appends nothing', async (t) => {
  for (const [name, m] of Object.entries(WITH_DATES)) {
    for (const field of m.dates) {
      for (const bad of ['2026-03-01junk', '2026-03-01 (anything)', '2026-03-01T10:00:00', '2026-02-30', '01/03/2026']) {
        const before = await api.eventCount();
        const r = await api.gql(`mutation($v: ${m.input}!) { ${name}(input: $v) { id } }`, { v: { ...m.valid, [field]: bad } });
        t.equal(r.errors?.[0]?.extensions?.code, 'global.businessErrors.invalidInput', `${name}.${field} = ${bad}`);
        t.equal(r.errors?.[0]?.extensions?.parameters?.field, field, `${name}.${field}: names the field`);
        t.equal(await api.eventCount(), before, `${name}.${field} = ${bad}: nothing appended`);
      }
    }
  }
});

t.test("a date-time's accounting date is the day it names in its own offset", async (t) => {
  const m = WITH_DATES.createAccountingEntryUsingCodes;
  // 23:30 at UTC-5 on 31 March is 1 April in UTC; 00:30 at UTC+2 on 1 April is still 31 March in UTC.
  const late = await api.gql(`mutation($v: ${m.input}!) { createAccountingEntryUsingCodes(input: $v) { id } }`, { v: { ...m.valid, date: `${year}-03-31T23:30:00-05:00`, documentDate: `${year}-04-01T00:30:00.5+02:00` } });
  t.equal(late.errors, undefined);
  const read = await api.gql(`query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { date documentDate accountingPeriod { month } } } }`, { id: late.data.createAccountingEntryUsingCodes.id });
  const [entry] = read.data.accountingEntries.nodes;
  t.match(entry.date, new RegExp(`^${year}-03-31`), 'the date written, not the UTC one');
  t.match(entry.documentDate, new RegExp(`^${year}-04-01`));
  t.equal(entry.accountingPeriod.month, 'MARCH', "in the written day's period");
});

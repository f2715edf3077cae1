import t from 'tap';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const year = new Date().getUTCFullYear();
const POST = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id number } }`;
const entry = (lines: [string, string | null, string | null][], date = `${year}-03-15`) => ({
  v: { date, journalTypeCode: 'GEN', description: 'test', accountingEntryLines: lines.map(([code, debit, credit]) => ({ subAccountCode: code, debitAmount: debit, creditAmount: credit })) },
});

t.test('the demo books read through GraphQL, with nested objects', async (t) => {
  const r = await api.gql(`{ accountingEntries(order: [{ number: ASC }]) { totalCount nodes { number journalType { code } accountingEntryLines { debitAmount creditAmount subAccount { code } } } } }`);
  t.equal(r.errors, undefined);
  t.equal(r.data.accountingEntries.totalCount, 4);
  t.same(r.data.accountingEntries.nodes.map((n: any) => n.number), [1, 2, 3, 4]);
  const sale = r.data.accountingEntries.nodes[1];
  t.equal(sale.journalType.code, 'VEN');
  t.same(sale.accountingEntryLines.map((l: any) => [l.subAccount.code, l.debitAmount, l.creditAmount]), [['4300001', '1210.00', '0.00'], ['7000000', '0.00', '1000.00'], ['4770000', '0.00', '210.00']]);
});

t.test('posting returns the next gap-free number and is readable at once', async (t) => {
  const r = await api.gql(POST, entry([['5720000', '99.95', null], ['1000000', null, '99.95']]));
  t.equal(r.errors, undefined);
  t.equal(r.data.createAccountingEntryUsingCodes.number, 5);
  const read = await api.gql(`query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { number description } } }`, { id: r.data.createAccountingEntryUsingCodes.id });
  t.same(read.data.accountingEntries.nodes, [{ number: 5, description: 'test' }]);
});

t.test('eq and neq treat null as a value: eq null finds the nulls, neq a value keeps them', async (t) => {
  const count = async (where: string) => {
    const r = await api.gql(`{ accountingEntryLines(where: ${where}) { totalCount } }`);
    t.equal(r.errors, undefined, where);
    return r.data.accountingEntryLines.totalCount as number;
  };
  const all = await count('{}');
  const noDescription = await count('{ description: { eq: null } }');
  const described = await count('{ description: { neq: null } }');
  t.ok(noDescription > 0 && described >= 0, `${noDescription} lines without a description`);
  t.equal(noDescription + described, all, 'eq null and neq null split the lines');
  const bank = await count('{ documentNumber: { eq: "NO-SUCH-DOCUMENT" } }');
  t.equal(bank, 0);
  t.equal(await count('{ documentNumber: { neq: "NO-SUCH-DOCUMENT" } }'), all, 'neq keeps the rows whose value is null');
});

t.test('a NUL character in any input string is refused, naming the field', async (t) => {
  const before = await api.eventCount();
  const r = await api.gql(POST, { v: { ...entry([['5720000', '1.00', null], ['1000000', null, '1.00']]).v, description: 'bad\u0000text' } });
  t.equal(r.errors?.[0]?.extensions?.code, 'global.businessErrors.invalidInput');
  t.match(JSON.stringify(r.errors?.[0]), /description/);
  t.equal(await api.eventCount(), before, 'nothing appended');
});

t.test('bad input is refused with a clear business error and appends nothing', async (t) => {
  const deactivated = await api.gql(`mutation { createAccountingAccount(input: { code: "5720099", name: "Old bank" }) { id } }`);
  await api.gql(`mutation($id: UUID!) { updateAccountingAccount(input: { id: $id, deactivated: true }) { id } }`, { id: deactivated.data.createAccountingAccount.id });
  const closing = await api.gql(`{ accountingExercises { nodes { periods { id month } } } }`);
  const february = closing.data.accountingExercises.nodes[0].periods.find((p: any) => p.month === 'FEBRUARY');
  t.equal((await api.gql(`mutation($id: UUID!) { closeAccountingPeriod(input: { id: $id }) { id } }`, { id: february.id })).errors, undefined);
  const cases: [string, object, string][] = [
    ['unbalanced', entry([['5720000', '10.00', null], ['1000000', null, '9.99']]), 'accounting.businessErrors.unbalancedEntry'],
    ['closed period', entry([['5720000', '10.00', null], ['1000000', null, '10.00']], `${year}-02-10`), 'accounting.businessErrors.accountingPeriodClosed'],
    ['unknown account', entry([['5729999', '10.00', null], ['1000000', null, '10.00']]), 'accounting.businessErrors.accountNotFound'],
    ['deactivated account', entry([['5720099', '10.00', null], ['1000000', null, '10.00']]), 'accounting.businessErrors.accountDeactivated'],
    ['heading account', entry([['57', '10.00', null], ['1000000', null, '10.00']]), 'accounting.businessErrors.accountNotPostingLevel'],
    ['two sides on a line', entry([['5720000', '10.00', '10.00'], ['1000000', null, '0']]), 'accounting.businessErrors.invalidAccountingEntryLineAmount'],
    ['three decimals', entry([['5720000', '10.001', null], ['1000000', null, '10.001']]), 'accounting.businessErrors.invalidAccountingEntryLineAmount'],
    ['no exercise', entry([['5720000', '10.00', null], ['1000000', null, '10.00']], `${year + 5}-01-10`), 'accounting.businessErrors.noAccountingExerciseForDate'],
  ];
  for (const [name, variables, code] of cases) {
    const before = await api.eventCount();
    const r = await api.gql(POST, variables);
    t.equal(r.data?.createAccountingEntryUsingCodes, null, `${name}: no result`);
    t.equal(r.errors?.[0]?.extensions?.code, code, `${name}: ${code}`);
    t.ok(r.errors?.[0]?.message?.length > 10, `${name}: a message`);
    t.equal(await api.eventCount(), before, `${name}: nothing appended`);
  }
  const spanish = await api.gql(POST, cases[0][1], { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Accept-Language': 'es' });
  t.match(spanish.errors[0].message, /descuadrado/, 'localized message');
});

t.test('refusals read as messages in the client language, naming the field, never as raw codes or zod text', async (t) => {
  const as = (language: string) => ({ Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Accept-Language': language });
  const USING_IDS = `mutation($v: AccountingEntryCreateUsingIdsGLDtoInput!) { createAccountingEntryUsingIds(input: $v) { id } }`;
  const cases: [string, string, object, string, Record<string, RegExp>][] = [
    ['no lines', POST, entry([]), 'accounting.businessErrors.accountingEntryNeedsTwoLines', { en: /at least two lines; this one has 0/, es: /al menos dos líneas; este tiene 0/, fr: /au moins deux lignes ; celle-ci en a 0/, de: /mindestens zwei Zeilen; diese hat 0/ }],
    ['one line', POST, entry([['5720000', '1.00', null]]), 'accounting.businessErrors.accountingEntryNeedsTwoLines', { en: /this one has 1\./, es: /este tiene 1\./, fr: /celle-ci en a 1\./, de: /diese hat 1\./ }],
    ['a long description', POST, { v: { ...entry([['5720000', '1.00', null], ['1000000', null, '1.00']]).v, description: 'x'.repeat(501) } }, 'global.businessErrors.invalidInput', { en: /description: at most 500 characters/, es: /description: como máximo 500 caracteres/, fr: /description : au plus 500 caractères/, de: /description: höchstens 500 Zeichen/ }],
    ['not a UUID', USING_IDS, { v: { date: `${year}-03-15`, journalTypeId: 'GEN', accountingEntryLines: [] } }, 'global.businessErrors.invalidInput', { en: /journalTypeId: not a UUID/, es: /journalTypeId: no es un UUID/, fr: /journalTypeId : ce n'est pas un UUID/, de: /journalTypeId: keine UUID/ }],
    ['a journal type that is no journal type', POST, { v: { ...entry([['5720000', '1.00', null], ['1000000', null, '1.00']]).v, journalTypeCode: 'NOPE' } }, 'accounting.businessErrors.journalTypeNotFound', { en: /Unknown journal type NOPE/, es: /Diario desconocido NOPE/, fr: /Journal inconnu NOPE/, de: /Unbekanntes Journal NOPE/ }],
  ];
  for (const [name, query, variables, code, messages] of cases) {
    for (const [language, message] of Object.entries(messages)) {
      const r = await api.gql(query, variables, as(language));
      t.equal(r.errors?.[0]?.extensions?.code, code, `${name} in ${language}: ${code}`);
      t.match(r.errors?.[0]?.message, message, `${name} in ${language}: ${r.errors?.[0]?.message}`);
      t.notMatch(r.errors?.[0]?.message, /businessErrors|[{}]|Too (small|big)|Invalid input/, `${name} in ${language}: no raw code or zod text`);
    }
  }
});

t.test('an account with entries cannot be deleted; an unused one can', async (t) => {
  const used = await api.gql(`{ accountingAccounts(where: { code: { eq: "5720000" } }) { nodes { id } } }`);
  const r = await api.gql(`mutation($id: UUID!) { deleteAccountingAccount(input: { id: $id }) { id } }`, { id: used.data.accountingAccounts.nodes[0].id });
  t.equal(r.errors?.[0]?.extensions?.code, 'accounting.businessErrors.accountHasEntries');
  const fresh = await api.gql(`mutation { createAccountingAccount(input: { code: "6290001", name: "Servicios varios" }) { id } }`);
  const del = await api.gql(`mutation($id: UUID!) { deleteAccountingAccount(input: { id: $id }) { id } }`, { id: fresh.data.createAccountingAccount.id });
  t.equal(del.errors, undefined);
  const after = await api.gql(`{ accountingAccounts(where: { code: { eq: "6290001" } }) { totalCount } }`);
  t.equal(after.data.accountingAccounts.totalCount, 0);
});

t.test('deleting an entry renumbers the ones after it', async (t) => {
  const a = await api.gql(POST, entry([['5720000', '1.00', null], ['1000000', null, '1.00']]));
  const b = await api.gql(POST, entry([['5720000', '2.00', null], ['1000000', null, '2.00']]));
  const numberA = a.data.createAccountingEntryUsingCodes.number;
  t.equal(b.data.createAccountingEntryUsingCodes.number, numberA + 1);
  t.equal((await api.gql(`mutation($id: UUID!) { deleteAccountingEntry(input: { id: $id }) { id } }`, { id: a.data.createAccountingEntryUsingCodes.id })).errors, undefined);
  const r = await api.gql(`query($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { nodes { number } } }`, { id: b.data.createAccountingEntryUsingCodes.id });
  t.equal(r.data.accountingEntries.nodes[0].number, numberA);
  const all = await api.gql(`{ accountingEntries(first: 500, order: [{ number: ASC }]) { nodes { number } } }`);
  t.same(all.data.accountingEntries.nodes.map((n: any) => n.number), all.data.accountingEntries.nodes.map((_: any, i: number) => i + 1), 'no gaps');
});

t.test('another organisation is invisible and untouchable', async (t) => {
  const other = await api.service.commands.createOrganisation({}, { name: 'Other GmbH', country: 'DE' });
  const headers = { Authorization: `Bearer ${api.token}`, 'X-Site': other.id };
  const read = await api.gql(`{ accountingAccounts { totalCount } }`, undefined, headers);
  t.equal(read.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHENTICATED', 'a token of org A does not open org B');
  const before = await api.eventCount();
  const write = await api.gql(POST, entry([['1200', '1.00', null], ['0800', null, '1.00']]), headers);
  t.equal(write.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHENTICATED');
  t.equal(await api.eventCount(), before, 'nothing appended');
  const rest = await api.rest('/ledger_accounts', headers);
  t.equal(rest.status, 401);
  const mine = await api.gql(`{ accountingAccounts(where: { code: { eq: "1200" } }) { totalCount } }`);
  t.equal(mine.data.accountingAccounts.totalCount, 0, "org B's SKR03 accounts do not show in org A");
});

t.test('a readonly token reads but cannot write', async (t) => {
  const readonly = await api.service.identity.issueToken(api.organisationId, 'demo@example.com', api.clientId, 'readonly');
  const headers = { Authorization: `Bearer ${readonly.access_token}`, 'X-Site': api.organisationId };
  t.equal((await api.gql(`{ journalTypes { totalCount } }`, undefined, headers)).data.journalTypes.totalCount, 9);
  const before = await api.eventCount();
  const r = await api.gql(`mutation { createJournalType(input: { code: "X1", name: "X", type: GENERAL }) { id } }`, undefined, headers);
  t.equal(r.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHORIZED');
  t.equal(await api.eventCount(), before);
});

t.test('missing headers are refused the way clients expect', async (t) => {
  const noOrg = await api.gql(`{ journalTypes { totalCount } }`, undefined, { Authorization: `Bearer ${api.token}` });
  t.match(noOrg.errors[0].message, /^X-OrganizationId header is mandatory\b.*X-Site/, "Sage's sentence first, then X-Site");
  const badToken = await api.gql(`{ journalTypes { totalCount } }`, undefined, { Authorization: 'Bearer nope', 'X-Site': api.organisationId });
  t.equal(badToken.errors[0].extensions.code, 'AUTH_NOT_AUTHENTICATED');
});

t.test('filters, sorting and cursor paging', async (t) => {
  const page1 = await api.gql(`{ accountingAccounts(first: 3, where: { code: { startsWith: "4" } }, order: [{ code: DESC }]) { totalCount nodes { code } pageInfo { hasNextPage endCursor } } }`);
  const c = page1.data.accountingAccounts;
  t.ok(c.totalCount > 3);
  t.same(c.nodes.map((n: any) => n.code), [...c.nodes.map((n: any) => n.code)].sort().reverse());
  const page2 = await api.gql(`query($after: String) { accountingAccounts(first: 3, after: $after, where: { code: { startsWith: "4" } }, order: [{ code: DESC }]) { nodes { code } } }`, { after: c.pageInfo.endCursor });
  t.ok(page2.data.accountingAccounts.nodes[0].code < c.nodes[2].code, 'page 2 continues after page 1');
  const tooMany = await api.gql(`{ accountingAccounts(first: 501) { totalCount } }`);
  t.ok(tooMany.errors?.length, 'page size above 500 refused');
  const exercises = await api.gql(`{ accountingExercises { nodes { exercise numberPeriods status periods { month isClosed } } } }`);
  t.equal(exercises.data.accountingExercises.nodes[0].numberPeriods, 12);
  t.equal(exercises.data.accountingExercises.nodes[0].periods.length, 12);
  for (const q of ['countries', 'invoiceTypes', 'currencies', 'accountingEntrySessions', 'dimensions', 'accountingEntryLines']) {
    const r = await api.gql(`{ ${q} { totalCount } }`);
    t.equal(r.errors, undefined, `${q} answers`);
  }
  const charts = await api.gql(`{ accountingPlanMasters { description accountingPlanMasterLines { code accountLevel } } }`);
  t.equal(charts.data.accountingPlanMasters.length, 5);
});

t.test('REST lists page as the spec says', async (t) => {
  const first = await api.rest('/ledger_accounts?items_per_page=50');
  t.equal(first.status, 200);
  t.equal(first.body.$page, 1);
  t.equal(first.body.$itemsPerPage, 50);
  t.equal(first.body.$back, null);
  t.equal(first.body.$next, '/ledger_accounts?page=2&items_per_page=50');
  t.equal(first.body.$items.length, 50);
  const item = first.body.$items[0];
  t.equal(item.$path, `/ledger_accounts/${item.id}`);
  t.ok(item.displayed_as);
  const last = await api.rest('/ledger_accounts?items_per_page=50&page=999');
  t.equal(last.body.$page, Math.ceil(first.body.$total / 50), 'a page past the end returns the last page');
  t.equal(last.body.$next, null);
  const capped = await api.rest('/journal_types?items_per_page=1000');
  t.equal(capped.body.$itemsPerPage, 200);
  const one = await api.rest(item.$path);
  t.equal(one.body.id, item.id);
  const missing = await api.rest('/journals/00000000-0000-0000-0000-000000000000');
  t.equal(missing.status, 404);
  t.equal(missing.body[0].$severity, 'error');
  for (const path of ['/journals', '/journal_types', '/accounting_exercises']) t.equal((await api.rest(path)).status, 200, path);
});

t.test('an Idempotency-Key makes a retried mutation return the first outcome, once', async (t) => {
  const headers = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Idempotency-Key': 'invoice-2026-0042' };
  const first = await api.gql(POST, entry([['5720000', '42.00', null], ['1000000', null, '42.00']]), headers);
  t.equal(first.errors, undefined);
  const before = await api.eventCount();
  const retry = await api.gql(POST, entry([['5720000', '42.00', null], ['1000000', null, '42.00']]), headers);
  t.same(retry.data, first.data, 'same id and number');
  t.equal(await api.eventCount(), before, 'nothing appended by the retry');
  const other = await api.gql(POST, entry([['5720000', '42.00', null], ['1000000', null, '42.00']]), { ...headers, 'Idempotency-Key': 'invoice-2026-0043' });
  t.equal(other.data.createAccountingEntryUsingCodes.number, first.data.createAccountingEntryUsingCodes.number + 1, 'another key is another entry');
  const account = await api.gql(`mutation { createAccountingAccount(input: { code: "6290077", name: "Idem" }) { id } }`, undefined, { ...headers, 'Idempotency-Key': 'account-6290077' });
  const accountAgain = await api.gql(`mutation { createAccountingAccount(input: { code: "6290077", name: "Idem" }) { id } }`, undefined, { ...headers, 'Idempotency-Key': 'account-6290077' });
  t.same(accountAgain.data, account.data, 'every mutation answers its retries');
});

t.test('an Idempotency-Key names one request of one caller: another request with it is refused, another caller has its own', async (t) => {
  const key = (k: string, token = api.token) => ({ Authorization: `Bearer ${token}`, 'X-Site': api.organisationId, 'Idempotency-Key': k, 'Accept-Language': 'fr' });
  const REUSED = 'global.businessErrors.idempotencyKeyReused';
  const first = await api.gql(POST, entry([['5720000', '7.00', null], ['1000000', null, '7.00']]), key('k-7'));
  t.equal(first.errors, undefined);
  const refusals: [string, string, object | undefined][] = [
    ['another amount', POST, entry([['5720000', '8.00', null], ['1000000', null, '8.00']])],
    ['another mutation', `mutation { createAccountingAccount(input: { code: "6290078", name: "Other" }) { id } }`, undefined],
    ['another exercise', POST, entry([['5720000', '7.00', null], ['1000000', null, '7.00']], `${year + 1}-03-15`)],
  ];
  await api.gql(`mutation { createAccountingExercise(input: { startDate: "${year + 1}-01-01", endDate: "${year + 1}-12-31" }) { id } }`);
  for (const [name, query, variables] of refusals) {
    const before = await api.eventCount();
    const r = await api.gql(query, variables, key('k-7'));
    t.equal(r.errors?.[0]?.extensions?.code, REUSED, `${name}: refused with a code`);
    t.match(r.errors?.[0]?.message, /clé d'idempotence/, `${name}: with a message in the caller's language`);
    t.equal(await api.eventCount(), before, `${name}: nothing appended`);
  }
  t.same((await api.gql(POST, entry([['5720000', '7.00', null], ['1000000', null, '7.00']]), key('k-7'))).data, first.data, 'the first request still gets its outcome');

  await api.service.identity.createUser(api.organisationId, 'second@example.com', 'a long enough password', 'accountant');
  const second = await api.service.identity.issueToken(api.organisationId, 'second@example.com', api.clientId, 'full_access');
  const theirs = await api.gql(POST, entry([['5720000', '7.00', null], ['1000000', null, '7.00']]), key('k-7', second.access_token));
  t.equal(theirs.errors, undefined);
  t.not(theirs.data.createAccountingEntryUsingCodes.id, first.data.createAccountingEntryUsingCodes.id, "another user's key is theirs: a new entry, not the first user's");
});

t.test('a retried deletion answers as the first did, though the entry is gone', async (t) => {
  const posted = await api.gql(POST, entry([['5720000', '3.00', null], ['1000000', null, '3.00']]));
  const DELETE = `mutation($id: UUID!) { deleteAccountingEntry(input: { id: $id }) { id } }`;
  const headers = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Idempotency-Key': 'delete-once' };
  const first = await api.gql(DELETE, { id: posted.data.createAccountingEntryUsingCodes.id }, headers);
  t.equal(first.errors, undefined);
  const before = await api.eventCount();
  const retry = await api.gql(DELETE, { id: posted.data.createAccountingEntryUsingCodes.id }, headers);
  t.equal(retry.errors, undefined, 'no entryNotFound');
  t.same(retry.data, first.data);
  t.equal(await api.eventCount(), before);
});

t.test('concurrent requests with one key: one outcome for the same request, a refusal for another', async (t) => {
  const headers = (k: string) => ({ Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Idempotency-Key': k });
  const same = await Promise.all([1, 2, 3].map(() => api.gql(POST, entry([['5720000', '4.00', null], ['1000000', null, '4.00']]), headers('race-same'))));
  t.same(same.map((r) => r.errors), [undefined, undefined, undefined]);
  t.equal(new Set(same.map((r) => r.data.createAccountingEntryUsingCodes.id)).size, 1, 'one entry');
  const mixed = await Promise.all(['5.00', '6.00'].map((amount) => api.gql(POST, entry([['5720000', amount, null], ['1000000', null, amount]]), headers('race-mixed'))));
  t.same(mixed.map((r) => r.errors?.[0]?.extensions?.code ?? 'ok').sort(), ['global.businessErrors.idempotencyKeyReused', 'ok']);
});

t.test("an id of another organisation's record reads as not found", async (t) => {
  const other = await api.service.commands.createOrganisation({}, { name: 'Third SL', country: 'ES' });
  await api.service.daemon.waitFor(other.position);
  const { rows } = await api.service.db.pool.query(`SELECT id FROM accounting_accounts WHERE organisation_id = $1 LIMIT 1`, [other.id]);
  const foreign = rows[0].id;
  t.equal((await api.rest(`/ledger_accounts/${foreign}`)).status, 404, 'REST');
  const r = await api.gql(`query($id: UUID!) { accountingAccounts(where: { id: { eq: $id } }) { totalCount } }`, { id: foreign });
  t.equal(r.data.accountingAccounts.totalCount, 0, 'GraphQL');
  const before = await api.eventCount();
  const del = await api.gql(`mutation($id: UUID!) { deleteAccountingAccount(input: { id: $id }) { id } }`, { id: foreign });
  t.equal(del.errors?.[0]?.extensions?.code, 'accounting.businessErrors.accountNotFound', 'cannot delete it either');
  t.equal(await api.eventCount(), before);
});

t.test('cost analysis: over budget refused before anything else, report and validate modes', async (t) => {
  const expensive = `{ accountingEntries(first: 500) { nodes { accountingEntryLines { id description order debitAmount creditAmount subAccount { code name } } } } }`;
  const refused = await api.gql(expensive, undefined, {}); // no credentials at all
  t.equal(refused.errors?.[0]?.extensions?.code, 'HC0047', 'refused for cost, before authentication touches the database');
  t.ok(refused.errors[0].extensions.fieldCost > 400_000);
  t.equal(refused.data, undefined);
  const headers = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId };
  const report = await api.gql(`{ journalTypes(first: 2) { totalCount } }`, undefined, { ...headers, 'GraphQL-Cost': 'report' });
  t.equal(report.data.journalTypes.totalCount >= 9, true);
  t.same(report.extensions.operationCost, { fieldCost: 20, typeCost: 2 });
  const validate = await api.gql(`{ journalTypes(first: 2) { totalCount } }`, undefined, { ...headers, 'GraphQL-Cost': 'validate' });
  t.equal(validate.data, undefined, 'validate does not execute');
  t.same(validate.extensions.operationCost, { fieldCost: 20, typeCost: 2 });
});

/**
 * Decimal inputs over HTTP: a JSON number is read by JSON.parse as a binary double, so 99999999999999.99 arrives
 * as 99999999999999.98. A number that may have changed (more than 15 significant digits) is refused with
 * INEXACT_DECIMAL for every Decimal input (amounts, prices, discounts, percentages, filters), a string or a query
 * literal is exact, and a string that is not plain decimal notation is refused with INVALID_DECIMAL. Refusals
 * append nothing.
 */
import t, { type TAP } from 'tap';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const year = new Date().getUTCFullYear();
const ENTRY = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`;
const entry = (description: string, amount: unknown) => ({
  v: { date: `${year}-05-05`, journalTypeCode: 'GEN', description, accountingEntryLines: [{ subAccountCode: '5720000', debitAmount: amount }, { subAccountCode: '1000000', creditAmount: amount }] },
});

async function linesOf(description: string) {
  const r = await api.gql(`query($d: String) { accountingEntries(where: { description: { eq: $d } }) { nodes { accountingEntryLines { debitAmount creditAmount } } } }`, { d: description });
  return r.data.accountingEntries.nodes.flatMap((n: any) => n.accountingEntryLines);
}

async function refused(t: Pick<TAP, 'equal'>, name: string, query: string, variables: object, code: string) {
  const before = await api.eventCount();
  const r = await api.gql(query, variables);
  t.equal(r.errors?.[0]?.extensions?.code, code, `${name}: ${code}`);
  t.equal(await api.eventCount(), before, `${name}: nothing appended`);
  return r.errors?.[0]?.message as string;
}

t.test('an amount sent as a JSON number that JSON.parse rounds is refused, asking for a string', async (t) => {
  const message = await refused(t, 'debitAmount 99999999999999.99', ENTRY, entry('rounded', 99999999999999.99), 'INEXACT_DECIMAL');
  t.match(message, /string/, 'the message says to send a string');
  t.same(await linesOf('rounded'), [], 'no entry');
  await refused(t, '0.1 + 0.2', ENTRY, entry('float artefact', 0.1 + 0.2), 'INEXACT_DECIMAL');
});

t.test('the same amount as a string or a query literal is stored exactly; short JSON numbers are exact', async (t) => {
  t.notOk((await api.gql(ENTRY, entry('as string', '99999999999999.99'))).errors);
  t.same((await linesOf('as string')), [{ debitAmount: '99999999999999.99', creditAmount: '0.00' }, { debitAmount: '0.00', creditAmount: '99999999999999.99' }]);

  const literal = await api.gql(`mutation { createAccountingEntryUsingCodes(input: { date: "${year}-05-06", journalTypeCode: "GEN", description: "as literal",
    accountingEntryLines: [{ subAccountCode: "5720000", debitAmount: 99999999999999.99 }, { subAccountCode: "1000000", creditAmount: 99999999999999.99 }] }) { id } }`);
  t.notOk(literal.errors, 'a FLOAT literal keeps its source text');
  t.same((await linesOf('as literal')), [{ debitAmount: '99999999999999.99', creditAmount: '0.00' }, { debitAmount: '0.00', creditAmount: '99999999999999.99' }]);

  t.notOk((await api.gql(ENTRY, entry('short number', 12.5))).errors, '12.5 as a JSON number is exact');
  t.same((await linesOf('short number')), [{ debitAmount: '12.50', creditAmount: '0.00' }, { debitAmount: '0.00', creditAmount: '12.50' }]);
});

t.test('a Decimal string must be plain decimal notation with bounded digits', async (t) => {
  for (const bad of ['abc', '1e5', '0x10', ' 12', '12.', '.5', '1'.repeat(21), `1.${'0'.repeat(21)}`, 'Infinity']) {
    await refused(t, JSON.stringify(bad), ENTRY, entry(`bad ${bad}`, bad), 'INVALID_DECIMAL');
  }
  await refused(t, 'a boolean', ENTRY, entry('bool', true), 'INVALID_DECIMAL');
  const literal = await api.gql(`mutation { createAccountingEntryUsingCodes(input: { date: "${year}-05-06", journalTypeCode: "GEN",
    accountingEntryLines: [{ subAccountCode: "5720000", debitAmount: 1e5 }, { subAccountCode: "1000000", creditAmount: 1e5 }] }) { id } }`);
  t.equal(literal.errors?.[0]?.extensions?.code, 'INVALID_DECIMAL', 'an exponent literal is refused too');
});

t.test('prices, discounts, percentages and filters follow the same rule', async (t) => {
  const inexact = 1234567.123456789; // 16 significant digits
  await refused(t, 'salesUnitPrice', `mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`, { v: { code: 'P1', name: 'P', category: 'PRODUCT', salesUnitPrice: inexact } }, 'INEXACT_DECIMAL');
  await refused(t, 'discount', `mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { id } }`, { v: { socialName: 'X', discount: 2.0000000000000004 } }, 'INEXACT_DECIMAL');
  await refused(t, 'payment term percentage', `mutation($v: PaymentTermCreateGLDtoInput!) { createPaymentTerm(input: $v) { id } }`,
    { v: { name: 'T', lines: [{ condition: 'DAY_OF_PAYMENT', type: 'PERCENTAGE', value: 33.333333333333336 }] } }, 'INEXACT_DECIMAL');
  const filter = await api.gql(`query($a: Decimal) { products(where: { salesUnitPrice: { gt: $a } }) { totalCount } }`, { a: inexact });
  t.equal(filter.errors?.[0]?.extensions?.code, 'INEXACT_DECIMAL', 'a filter value');
  const junk = await api.gql(`query($a: Decimal) { products(where: { salesUnitPrice: { gt: $a } }) { totalCount } }`, { a: 'junk' });
  t.equal(junk.errors?.[0]?.extensions?.code, 'INVALID_DECIMAL', 'a filter string');
  t.notOk((await api.gql(`mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`, { v: { code: 'P2', name: 'P', category: 'PRODUCT', salesUnitPrice: 45 } })).errors, 'an exact number is accepted');
});

t.test('a JSON number of more than 15 digits that rounds onto a shorter one is refused too (the text sent decides)', async (t) => {
  // 99999999999999.09 and 99999999999999.1 are the same double: JSON.parse alone cannot tell them apart.
  const raw = (description: string, amount: string) =>
    `{"query":${JSON.stringify(ENTRY)},"variables":{"v":{"date":"${year}-05-07","journalTypeCode":"GEN","description":"${description}","accountingEntryLines":[{"subAccountCode":"5720000","debitAmount":${amount}},{"subAccountCode":"1000000","creditAmount":${amount}}]}}}`;
  const post = async (body: string) => {
    const res = await fetch(`${api.base}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId }, body });
    return res.json();
  };
  for (const [description, amount] of [['rounds to .10', '99999999999999.09'], ['rounds to .00', '999999999999999.01']]) {
    const before = await api.eventCount();
    const r = await post(raw(description, amount));
    t.equal(r.errors?.[0]?.extensions?.code, 'INEXACT_DECIMAL', `${amount}: INEXACT_DECIMAL`);
    t.match(r.errors?.[0]?.message, new RegExp(`${amount.replace('.', '\\.')}.*string`), 'names the number as sent and asks for a string');
    t.equal(await api.eventCount(), before, `${amount}: nothing appended`);
    t.same(await linesOf(description), [], `${amount}: no entry`);
  }
  t.notOk((await post(raw('exact long text', '12.50000000000000000'))).errors, 'trailing zeros change nothing: accepted');
  const query = encodeURIComponent('query($a: Decimal) { products(where: { salesUnitPrice: { gt: $a } }) { totalCount } }');
  const get = await fetch(`${api.base}/graphql?query=${query}&variables=${encodeURIComponent('{"a":99999999999999.09}')}`, { headers: { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId } });
  t.equal((await get.json()).errors?.[0]?.extensions?.code, 'INEXACT_DECIMAL', 'a filter in the variables of a GET');
});

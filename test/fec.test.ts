/**
 * `ledger export fec`: a French organisation's exercise, posted through the real service, read back as the FEC file
 * a French tax auditor receives: the 18 official column names in order, 18 fields per row, YYYYMMDD dates, decimal
 * commas, one row per entry line, every EcritureNum balanced, sorted by date then number, ValidDate never before
 * EcritureDate, third parties in CompAuxNum/CompAuxLib; the default file name; bad --exercise refused clearly.
 */
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runningService } from './helpers/service.ts';
import { clientOf } from './helpers/organisation-client.ts';
import { ledgerCli } from './helpers/cli-run.ts';

const api = await runningService(t);
const { mutate, store, daemon, db } = api.service as any;
const year = new Date().getUTCFullYear();
const fr = await clientOf(api, 'FR', 'Boulangerie Dupont SARL', 'compta@example.fr');
const ctx = { organisationId: fr.orgId };
const customer = await mutate.createCustomer(ctx, { socialName: 'Épicerie Martin' });
const supplier = await mutate.createSupplier(ctx, { socialName: 'Moulins Réunis' });
const post = (date: string, journalTypeCode: string, description: string, lines: object[]) =>
  mutate.createAccountingEntryUsingCodes(ctx, { date, journalTypeCode, description, accountingEntryLines: lines });
// Posted out of date order: the file sorts them. The last is dated after today: recorded ahead of its date.
await post(`${year}-06-15`, 'ACH', 'Facture farine', [
  { subAccountCode: '607000', debitAmount: '1000.00' }, { subAccountCode: '445660', debitAmount: '200.00' },
  { subAccountCode: '401000', thirdCode: supplier.code, creditAmount: '1200.00' },
]);
await post(`${year}-02-01`, 'VTE', 'Facture\tpains', [
  { subAccountCode: '411000', thirdCode: customer.code, debitAmount: '1234567.89' },
  { subAccountCode: '706000', creditAmount: '1028806.58' }, { subAccountCode: '445710', creditAmount: '205761.31' },
]);
await post(`${year}-02-01`, 'BQ', 'Encaissement', [
  { subAccountCode: '512000', debitAmount: '0.10', description: 'Virement' }, { subAccountCode: '411000', thirdCode: customer.code, creditAmount: '0.10' },
]);
await post(`${year}-12-31`, 'OD', 'Provision', [{ subAccountCode: '607000', debitAmount: '5.00' }, { subAccountCode: '512000', creditAmount: '5.00' }]);

// A sales invoice posted to VTE and settled in full through BQ: the settlement's lines carry the matching letter.
const gql = async (query: string, v: object) => {
  const r = await api.gql(query, { v }, fr.headers);
  if (r.errors) throw new Error(JSON.stringify(r.errors));
  return Object.values(r.data)[0] as any;
};
const { journalTypeIdByCode, accountIdByCode } = await api.service.commands.organisation(fr.orgId);
const product = await gql(`mutation($v: ProductCreateGLDtoInput!) { createProduct(input: $v) { id } }`, { code: 'PAIN', name: 'Pain', category: 'PRODUCT', salesUnitPrice: '10.00' });
const invoice = await gql(`mutation($v: SalesInvoiceCreateGLDtoInput!) { createSalesInvoice(input: $v) { id } }`, { customerId: customer.id, documentDate: `${year}-04-01`, lines: [{ productId: product.id, totalQuantity: '3' }] });
await gql(`mutation($v: CloseSalesInvoiceGLDtoInput!) { closeSalesInvoice(input: $v) { id } }`, { salesInvoiceId: invoice.id });
await gql(`mutation($v: PostSalesInvoiceGLDtoInput!) { postSalesInvoice(input: $v) { accountingEntryId } }`, { salesInvoiceId: invoice.id, journalTypeId: journalTypeIdByCode.get('VTE') });
const method = await gql(`mutation($v: PaymentMethodCreateGLDtoInput!) { createPaymentMethod(input: $v) { id } }`, { referenceName: 'Banque', type: 'BANK_ACCOUNT', journalTypeId: journalTypeIdByCode.get('BQ'), subAccountId: accountIdByCode.get('512000') });
await daemon.waitFor(await store.committedHead()); // (the open items are a read model)
const [item] = (await api.gql(`query($id: UUID!) { salesInvoiceOpenItems(where: { salesInvoiceId: { eq: $id } }) { nodes { id amount } } }`, { id: invoice.id }, fr.headers)).data.salesInvoiceOpenItems.nodes;
await gql(`mutation($v: SalesOpenItemSettlementGLDtoInput!) { salesOpenItemSettlement(input: $v) { accountingEntryId } }`,
  { entryDate: `${year}-04-20`, paymentMethodId: method.id, thirdPartyId: customer.id, description: 'Règlement', salesOpenItemLinkagePaidAmounts: [{ openItemId: item.id, paidAmount: item.amount }] });
await daemon.waitFor(await store.committedHead());

const HEADER = 'JournalCode\tJournalLib\tEcritureNum\tEcritureDate\tCompteNum\tCompteLib\tCompAuxNum\tCompAuxLib\tPieceRef\tPieceDate\tEcritureLib\tDebit\tCredit\tEcritureLet\tDateLet\tValidDate\tMontantdevise\tIdevise';
const dir = await mkdtemp(join(tmpdir(), 'fec-'));
const cents = (amount: string) => BigInt(amount.replace(',', ''));

t.test('the FEC of an open exercise: names, formats, one row per line, each entry balanced, in date order', async (t) => {
  const r = await ledgerCli(db.url, ['export', 'fec', '--org', fr.orgId, '--exercise', String(year), '--json'], dir);
  t.equal(r.code, 0, r.stderr);
  t.equal(r.stderr, '', 'no warning for a French organisation');
  const name = `${fr.orgId}FEC${year}1231.txt`;
  t.same(await readdir(dir), [name], 'the official name: <id>FEC<closing date>.txt');
  
  const text = await readFile(join(dir, name), 'utf8');
  t.ok(text.endsWith('\n'));
  const [header, ...rows] = text.slice(0, -1).split('\n').map((l) => l.split('\t'));
  t.equal(header.join('\t'), HEADER, 'the 18 names of article A47 A-1, in order');
  const { rows: [{ n }] } = await db.pool.query(
    `SELECT count(*)::int AS n FROM accounting_entry_lines l JOIN accounting_entries e ON e.id = l.accounting_entry_id WHERE e.organisation_id = $1`, [fr.orgId]);
  t.equal(rows.length, n, 'one row per entry line');
  t.match(JSON.parse(r.stdout), { file: name, exercise: year, rows: n });
  const at = (row: string[], column: string) => row[header.indexOf(column)];
  const sums = new Map<string, bigint>();
  for (const row of rows) {
    t.equal(row.length, 18, '18 fields');
    for (const c of ['EcritureDate', 'PieceDate', 'ValidDate']) t.match(at(row, c), /^\d{8}$/, `${c} YYYYMMDD`);
    for (const c of ['Debit', 'Credit']) t.match(at(row, c), /^-?\d+,\d{2}$/, `${c}: decimal comma, no thousands separator`);
    for (const c of ['JournalCode', 'JournalLib', 'EcritureNum', 'CompteNum', 'CompteLib', 'PieceRef', 'EcritureLib']) t.not(at(row, c), '', `${c} given`);
    t.ok(at(row, 'ValidDate') >= at(row, 'EcritureDate'), 'ValidDate not before EcritureDate');
    t.same([at(row, 'Montantdevise'), at(row, 'Idevise')], ['', ''], 'base currency only');
    t.match(at(row, 'DateLet'), at(row, 'EcritureLet') ? /^\d{8}$/ : /^$/, 'DateLet with a letter only');
    const num = at(row, 'EcritureNum');
    sums.set(num, (sums.get(num) ?? 0n) + cents(at(row, 'Debit')) - cents(at(row, 'Credit')));
  }
  t.equal(sums.size, 6, 'four entries, the invoice and its settlement');
  for (const [num, sum] of sums) t.equal(sum, 0n, `EcritureNum ${num} balanced`);
  const keys = rows.map((row) => `${at(row, 'EcritureDate')} ${at(row, 'EcritureNum').padStart(9, '0')}`);
  t.same(keys, [...keys].sort(), 'sorted by EcritureDate then EcritureNum');

  const sale = rows.find((row) => at(row, 'CompteNum') === '411000' && at(row, 'Debit') !== '0,00')!;
  t.same([at(sale, 'JournalCode'), at(sale, 'JournalLib'), at(sale, 'EcritureDate'), at(sale, 'Debit'), at(sale, 'Credit')], ['VTE', 'Ventes', `${year}0201`, '1234567,89', '0,00']);
  t.same([at(sale, 'CompAuxNum'), at(sale, 'CompAuxLib'), at(sale, 'CompteLib')], [customer.code, 'Épicerie Martin', 'Clients'], 'the customer as auxiliary account, in UTF-8');
  t.equal(at(sale, 'EcritureLib'), 'Facture pains', 'a tab inside a text becomes a space');
  const bank = rows.find((row) => at(row, 'CompteNum') === '512000' && at(row, 'EcritureDate') === `${year}0201`)!;
  t.same([at(bank, 'CompAuxNum'), at(bank, 'EcritureLib'), at(bank, 'Debit')], ['', 'Virement', '0,10'], 'no third party; the line\'s own text');
  const purchase = rows.find((row) => at(row, 'CompteNum') === '401000')!;
  t.same([at(purchase, 'CompAuxNum'), at(purchase, 'CompAuxLib'), at(purchase, 'Credit')], [supplier.code, 'Moulins Réunis', '1200,00']);
  const lettered = rows.filter((row) => at(row, 'EcritureLet'));
  t.ok(lettered.length > 0, 'the settlement\'s lines lettered');
  for (const row of lettered) t.same([at(row, 'JournalCode'), at(row, 'EcritureDate'), at(row, 'EcritureLet')], ['BQ', `${year}0420`, at(lettered[0], 'EcritureLet')]);
  const ahead = rows.find((row) => at(row, 'JournalCode') === 'OD')!;
  t.equal(at(ahead, 'ValidDate'), `${year}1231`, 'recorded ahead of its date: valid from its date');
});

t.test('--out names the file; the exercise by id gives the same rows', async (t) => {
  const { rows: [x] } = await db.pool.query(`SELECT id FROM accounting_exercises WHERE organisation_id = $1 AND exercise = $2`, [fr.orgId, year]);
  const out = join(dir, 'by-id.txt');
  const r = await ledgerCli(db.url, ['export', 'fec', '--org', fr.orgId, '--exercise', x.id, '--out', out]);
  t.equal(r.code, 0, r.stderr);
  t.equal(await readFile(out, 'utf8'), await readFile(join(dir, `${fr.orgId}FEC${year}1231.txt`), 'utf8'));
});

t.test('a bad or unknown --exercise is refused in one line, and nothing is written', async (t) => {
  const before = await readdir(dir);
  const bad = await ledgerCli(db.url, ['export', 'fec', '--org', fr.orgId, '--exercise', 'last-year'], dir);
  t.equal(bad.code, 2, 'a mistake on the command line');
  t.match(bad.stderr.trim(), /^ledger export fec: --exercise must be an exercise id \(UUID\) or a year/);
  const unknown = await ledgerCli(db.url, ['export', 'fec', '--org', fr.orgId, '--exercise', '1999'], dir);
  t.equal(unknown.code, 1);
  t.equal(unknown.stderr.trim(), `no exercise 1999 in organisation ${fr.orgId} (its exercises: ${year})`);
  t.same(await readdir(dir), before, 'no file written');
});

t.test('another country\'s organisation gets its file and a warning', async (t) => {
  const out = join(dir, 'es.txt');
  const r = await ledgerCli(db.url, ['export', 'fec', '--org', api.organisationId, '--exercise', String(year), '--out', out]);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stderr, /^warning: organisation \S+ is ES, not French/);
  t.equal((await readFile(out, 'utf8')).split('\n')[0], HEADER);
});

/** Runs `body` with the read models changed by `change`, then puts them back with `restore` (later tests read them as posted). */
const whileChanged = async (change: string, restore: string, values: unknown[], body: () => Promise<void>) => {
  await db.pool.query(change, values);
  try {
    await body();
  } finally {
    await db.pool.query(restore, values);
  }
};
const exportTo = (name: string, ...more: string[]) => ledgerCli(db.url, ['export', 'fec', '--org', fr.orgId, '--exercise', String(year), '--out', join(dir, name), ...more]);
const rowsOf = async (name: string) => {
  const [header, ...rows] = (await readFile(join(dir, name), 'utf8')).slice(0, -1).split('\n').map((l) => l.split('\t'));
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
};

t.test('blank texts fall back: CompAuxLib to the third party\'s code, PieceRef to the entry number, EcritureLib to the journal', async (t) => {
  const { rows: [entry] } = await db.pool.query(`SELECT id, number::text FROM accounting_entries WHERE organisation_id = $1 AND description = 'Facture farine'`, [fr.orgId]);
  await whileChanged(`UPDATE suppliers SET social_name = ' ' WHERE organisation_id = $1 AND id = $2`, `UPDATE suppliers SET social_name = 'Moulins Réunis' WHERE organisation_id = $1 AND id = $2`, [fr.orgId, supplier.id], () =>
    whileChanged(`UPDATE accounting_entries SET description = ' ', document_number = ' ' WHERE organisation_id = $1 AND id = $2`, `UPDATE accounting_entries SET description = 'Facture farine', document_number = NULL WHERE organisation_id = $1 AND id = $2`, [fr.orgId, entry.id], async () => {
      const r = await exportTo('blank.txt');
      t.equal(r.code, 0, r.stderr);
      const lines = (await rowsOf('blank.txt')).filter((row) => row.EcritureNum === entry.number);
      t.equal(lines.length, 3);
      const purchase = lines.find((row) => row.CompteNum === '401000')!;
      t.same([purchase.CompAuxNum, purchase.CompAuxLib], [supplier.code, supplier.code], 'a nameless third party: its code as the name');
      for (const row of lines) t.same([row.PieceRef, row.EcritureLib], [entry.number, 'Achats'], 'the entry number; the journal\'s name');
    }));
});

t.test('an account number shorter than 3 characters, or a line whose account the read models lack: refused by name, no file left', async (t) => {
  const before = await readdir(dir);
  await whileChanged(`UPDATE accounting_accounts SET code = 'Z7' WHERE organisation_id = $1 AND code = '607000'`, `UPDATE accounting_accounts SET code = '607000' WHERE organisation_id = $1 AND code = 'Z7'`, [fr.orgId], async () => {
    const r = await exportTo('short.txt');
    t.equal(r.code, 1);
    t.match(r.stderr.trim(), /^the FEC cannot be written: account 'Z7' \(.+\) is shorter than the 3 characters a CompteNum needs \(entry \d+\): give it a longer code$/);
  });
  const { rows: [line] } = await db.pool.query(`SELECT l.id, l.sub_account_id FROM accounting_entry_lines l JOIN accounting_accounts a ON a.id = l.sub_account_id WHERE l.organisation_id = $1 AND a.code = '706000'`, [fr.orgId]);
  const lost = '00000000-0000-4000-8000-000000000706';
  await whileChanged(`UPDATE accounting_entry_lines SET sub_account_id = $3 WHERE organisation_id = $1 AND id = $2 AND $4::uuid IS NOT NULL`, `UPDATE accounting_entry_lines SET sub_account_id = $4 WHERE organisation_id = $1 AND id = $2 AND $3::uuid IS NOT NULL`, [fr.orgId, line.id, lost, line.sub_account_id], async () => {
    const r = await exportTo('lost.txt');
    t.equal(r.code, 1);
    t.match(r.stderr.trim(), new RegExp(`^the FEC cannot be written: a line of entry \\d+ names account ${lost}, which the accounts read model does not hold$`));
  });
  t.same(await readdir(dir), before, 'neither the file nor its .tmp');
});

t.test('a lagging entries read model is refused unless --allow-stale; an unwritable --out is one clear line', async (t) => {
  const { rows: [at] } = await db.pool.query(`SELECT commit_pos::text AS c, prepare_pos::text AS p FROM projection_checkpoints WHERE name = 'entries'`);
  await whileChanged(`UPDATE projection_checkpoints SET commit_pos = '0', prepare_pos = 0 WHERE name = 'entries' AND $1::text || $2::text IS NOT NULL`,
    `UPDATE projection_checkpoints SET commit_pos = $1::text::xid8, prepare_pos = $2::bigint WHERE name = 'entries'`, [at.c, at.p], async () => {
      const refused = await exportTo('stale.txt');
      t.equal(refused.code, 1);
      t.match(refused.stderr.trim(), /^the entries read model is \d+ events behind: the FEC would miss entries; start the service \(npm start\) to bring it up to date, or pass --allow-stale$/);
      t.notOk((await readdir(dir)).includes('stale.txt'));
      const allowed = await exportTo('stale.txt', '--allow-stale');
      t.equal(allowed.code, 0, allowed.stderr);
      t.match(allowed.stderr, /^warning: the entries read model is \d+ events behind; written anyway \(--allow-stale\)/);
    });
  const r = await ledgerCli(db.url, ['export', 'fec', '--org', fr.orgId, '--exercise', String(year), '--out', join(dir, 'no-such-dir', 'x.txt')]);
  t.equal(r.code, 1);
  t.match(r.stderr.trim(), /^cannot write .*no-such-dir\/x\.txt: ENOENT/);
  t.notMatch(r.stderr, /\n\s+at /, 'no stack trace');
});

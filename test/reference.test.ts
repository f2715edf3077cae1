import t from 'tap';
import { AccountLevel, AccountType, JournalTypeType, SubAccountType } from '../domain/accounting/enums.ts';
import { OrganisationCountry } from '../domain/enums.ts';
import { MASTER_CHARTS, classifyAccountCode, masterChartFor } from '../domain/reference/charts.ts';
import { standardJournalTypesFor } from '../domain/reference/journal-types.ts';
import { BASE_CURRENCY, COUNTRIES, CURRENCIES, referenceId } from '../domain/reference/countries.ts';
import { INVOICE_TYPES, RegisterType } from '../domain/reference/invoice-types.ts';

const dupes = (xs: readonly string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);

t.test('master charts: structural invariants', async (t) => {
  t.same(dupes(MASTER_CHARTS.map((c) => c.key)), [], 'chart keys unique');
  for (const chart of MASTER_CHARTS) {
    t.test(chart.key, async (t) => {
      const codes = chart.lines.map((l) => l.code);
      t.same(dupes(codes), [], 'codes unique');
      t.ok(chart.lines.length >= 60 && chart.lines.length <= 300, `credible size (${chart.lines.length} lines)`);

      for (const l of chart.lines) {
        if (!AccountLevel.includes(l.accountLevel)) t.fail(`${l.code}: bad accountLevel ${l.accountLevel}`);
        if (!AccountType.includes(l.accountType)) t.fail(`${l.code}: bad accountType ${l.accountType}`);
        if (!SubAccountType.includes(l.subAccountType)) t.fail(`${l.code}: bad subAccountType ${l.subAccountType}`);
        if (!/^\d+$/.test(l.code)) t.fail(`${l.code}: non-numeric code`);
        if (!l.name.trim()) t.fail(`${l.code}: empty name`);
      }

      const classes = chart.lines.filter((l) => l.accountLevel === 'GROUP');
      const postings = chart.lines.filter((l) => l.accountLevel === 'SUB_ACCOUNT');
      const overlapping = postings.flatMap((a) =>
        postings.filter((b) => a !== b && b.code.startsWith(a.code)).map((b) => `${a.code}<${b.code}`),
      );
      t.same(overlapping, [], 'SUB_ACCOUNT codes are prefix-free');
      const orphans = chart.lines.filter((l) => l.accountLevel !== 'GROUP' && !classes.some((c) => l.code.startsWith(c.code)));
      t.same(orphans.map((l) => l.code), [], 'every line has a GROUP (class) ancestor');

      const has = (sub: SubAccountType) => postings.some((l) => l.subAccountType === sub);
      for (const sub of ['BANK', 'CUSTOMER', 'PROVIDER', 'CASH', 'INPUT_TAX', 'OUTPUT_TAX', 'FIXED_ASSET', 'STOCK', 'EMPLOYEE', 'CHARGE', 'REVENUE'] as const) {
        t.ok(has(sub), `has a ${sub} posting line`);
      }
      t.ok(postings.some((l) => l.nature === 'EQUITY'), 'has equity posting lines');
      t.ok(postings.some((l) => l.nature === 'INCOME'), 'has income posting lines');
      t.ok(postings.some((l) => l.nature === 'EXPENSE'), 'has expense posting lines');
      // Sage's accountType follows the nature: balance sheet, income statement, or (DE class 9) statistical.
      for (const l of chart.lines) {
        const statement = { ASSET: 'BALANCE_SHEET', LIABILITY: 'BALANCE_SHEET', EQUITY: 'BALANCE_SHEET', INCOME: 'INCOME_STATEMENT', EXPENSE: 'INCOME_STATEMENT', OFF_BALANCE: 'STATISTICAL' }[l.nature];
        if (l.accountType !== statement) t.fail(`${l.code}: ${l.nature} is ${statement}, not ${l.accountType}`);
      }
      t.ok(postings.filter((l) => l.nature === 'EXPENSE').every((l) => l.subAccountType === 'CHARGE'), 'expense lines are CHARGE');
      t.ok(postings.filter((l) => l.nature === 'INCOME').every((l) => l.subAccountType === 'REVENUE'), 'income lines are REVENUE');
      if (chart.key === 'US-GAAP') t.notOk(chart.lines.some((l) => l.applyVat), 'US-GAAP never applies VAT');
      else t.ok(postings.some((l) => l.applyVat), 'some posting lines apply VAT');

      for (const l of postings) t.equal(classifyAccountCode(chart, l.code), l, `classify ${l.code} finds itself`);
      t.equal(classifyAccountCode(chart, 'X'), undefined, 'unknown code classifies to undefined');
    });
  }
});

t.test('classifyAccountCode picks the longest prefix', async (t) => {
  const es = masterChartFor('ES');
  const line = classifyAccountCode(es, '4300123');
  t.equal(line?.subAccountType, 'CUSTOMER');
  t.equal(line?.code, '430');
  t.equal(classifyAccountCode(es, '5720001')?.subAccountType, 'BANK');
  t.equal(classifyAccountCode(es, '4000000')?.accountLevel, 'SUB_ACCOUNT');
  t.equal(classifyAccountCode(masterChartFor('FR'), '411123')?.subAccountType, 'CUSTOMER');
  t.equal(classifyAccountCode(masterChartFor('FR'), '445661')?.subAccountType, 'INPUT_TAX');
  t.equal(classifyAccountCode(masterChartFor('DE'), '1401')?.subAccountType, 'CUSTOMER');
  t.equal(classifyAccountCode(masterChartFor('GB'), '1201')?.code, '12');
});

t.test('every organisation country has a chart and journal types', async (t) => {
  for (const country of OrganisationCountry) {
    const chart = masterChartFor(country);
    t.ok(chart.countries.includes(country), `${country} -> ${chart.key}`);
    const jts = standardJournalTypesFor(country);
    t.ok(jts.length >= 6 && jts.length <= 9, `${country}: 6-9 journal types`);
    t.same(dupes(jts.map((j) => j.code)), [], `${country}: journal codes unique`);
    for (const j of jts) {
      t.ok(JournalTypeType.includes(j.type), `${country} ${j.code}: valid type`);
      if (j.isCreditNote) t.ok(j.type === 'SALES_INVOICE' || j.type === 'PURCHASE_INVOICE', `${country} ${j.code}: a credit-note journal is an invoice journal`);
    }
    for (const needed of ['SALES_INVOICE', 'PURCHASE_INVOICE', 'FINANCIAL', 'GENERAL', 'CARRY_FORWARD', 'CLOSING'] as const) {
      t.ok(jts.some((j) => j.type === needed), `${country}: has ${needed} journal`);
    }
    t.ok(CURRENCIES.some((c) => c.code === BASE_CURRENCY[country]), `${country}: base currency ${BASE_CURRENCY[country]} known`);
    t.ok(COUNTRIES.some((c) => c.isoCodeAlpha2 === country), `${country}: in COUNTRIES`);
  }
  const covered = MASTER_CHARTS.flatMap((c) => c.countries);
  t.same(dupes(covered), [], 'no country served by two charts');
});

t.test('countries', async (t) => {
  t.same(dupes(COUNTRIES.map((c) => c.isoCodeAlpha2)), []);
  t.same(dupes(COUNTRIES.map((c) => c.isoCodeAlpha3)), []);
  t.same(dupes(COUNTRIES.map((c) => c.isoNumber)), []);
  for (const c of COUNTRIES) {
    t.match(c.isoCodeAlpha2, /^[A-Z]{2}$/);
    t.match(c.isoCodeAlpha3, /^[A-Z]{3}$/);
    t.match(c.isoNumber, /^\d{3}$/);
  }
  t.equal(COUNTRIES.filter((c) => c.viesCode !== null).length, 27, '27 EU member states have a VIES code');
  const by = (a2: string) => COUNTRIES.find((c) => c.isoCodeAlpha2 === a2);
  t.equal(by('GR')?.viesCode, 'EL');
  t.equal(by('ES')?.viesCode, 'ES');
  t.equal(by('IE')?.viesCode, 'IE');
  t.equal(by('GB')?.viesCode, null);
  t.equal(by('US')?.isoNumber, '840');
  t.equal(by('AD')?.isoCodeAlpha3, 'AND');
});

t.test('currencies', async (t) => {
  t.same(dupes(CURRENCIES.map((c) => c.code)), []);
  const expected: Record<string, number> = {
    EUR: 2, GBP: 2, USD: 2, CAD: 2, CHF: 2, JPY: 0, KWD: 3, BHD: 3, NOK: 2, SEK: 2,
    DKK: 2, PLN: 2, CZK: 2, HUF: 2, MXN: 2, AUD: 2, CNY: 2, BRL: 2, INR: 2, MAD: 2,
  };
  for (const [code, precision] of Object.entries(expected)) {
    t.equal(CURRENCIES.find((c) => c.code === code)?.precision, precision, `${code} has ${precision} minor units`);
  }
  t.same(BASE_CURRENCY, { ES: 'EUR', FR: 'EUR', DE: 'EUR', IE: 'EUR', GB: 'GBP', US: 'USD', CA: 'CAD' });
});

t.test('referenceId is a deterministic UUID v5', async (t) => {
  const a = referenceId('country', 'ES');
  t.equal(referenceId('country', 'ES'), a);
  t.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.not(referenceId('currency', 'ES'), a, 'kind is part of the id');
  t.not(referenceId('country', 'FR'), a, 'key is part of the id');
});

t.test('SII invoice types', async (t) => {
  t.same(dupes(INVOICE_TYPES.map((i) => i.invoiceTypesCode)), []);
  for (const code of ['F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'R1', 'R2', 'R3', 'R4', 'R5']) {
    const it = INVOICE_TYPES.find((i) => i.invoiceTypesCode === code);
    t.ok(it, `${code} present`);
    t.equal(it?.siiCode, code);
    t.equal(it?.isAmendInvoice, code.startsWith('R'));
    t.ok(it && RegisterType.includes(it.registerType));
  }
});

/**
 * Issue 19, the accountant's review of the statement models: accounts the review found on the wrong line, each checked
 * on a small ledger whose statement was worked out by hand (the expected amounts are literals, not read from the
 * models' formula text).
 */
import fc from 'fast-check';
import t from 'tap';
import { Decimal } from '../../domain/money.ts';
import {
  evaluate, positions, statementModel, statementVariants, unmapped, type AccountBalance, type StatementModel, type StatementRow,
} from '../../domain/reports/statements.ts';
import { balancesOf } from '../helpers/random-ledger.ts';
import { expect, holds } from '../helpers/property.ts';

const d = (value: string | number) => new Decimal(value);
const dr = (amount: number): AccountBalance => ({ debit: d(amount), credit: d(0) });
const cr = (amount: number): AccountBalance => ({ debit: d(0), credit: d(amount) });
/** The rows' totals by code, as strings, for the codes asked. */
function totals(rows: StatementRow[], codes: readonly string[]): Record<string, string> {
  return Object.fromEntries(codes.map((code) => {
    const found = rows.find((r) => r.code === code);
    if (!found) throw new Error(`no line ${code}`);
    return [code, found.amountTotal.toString()];
  }));
}
const lineOf = (country: string, statement: 'BALANCE_SHEET' | 'PROFIT_AND_LOSS', code: string, variant?: string) =>
  positions(statementModel(country, statement, variant), code).main?.code;

t.test('DE: Wertberichtigungen zu Forderungen (0996..0999) reduce the Forderungen aus L+L', async (t) => {
  // 1400 Forderungen 1000 Dr; 0996 Pauschalwertberichtigung 100 Cr; 0800 Gezeichnetes Kapital 900 Cr.
  // AB21 = 1000 − 100 = 900; Aktiva 900; PD (Rechnungsabgrenzung) untouched; Passiva = Kapital 900.
  const rows = evaluate(statementModel('DE', 'BALANCE_SHEET'), new Map([['1400', dr(1000)], ['0996', cr(100)], ['0800', cr(900)]]));
  t.same(totals(rows, ['AB21', 'AT', 'PD', 'PT']), { AB21: '900', AT: '900', PD: '0', PT: '900' });
  for (const code of ['0996', '0997', '0998', '0999']) t.equal(lineOf('DE', 'BALANCE_SHEET', code), 'AB21', code);
});

t.test('DE: the Gewerbesteuer (4320) is a Steuer vom Ertrag (§ 275 Abs. 2 Nr. 14), not a sonstige betriebliche Aufwendung', async (t) => {
  // 8400 Umsatz 1000 Cr; 4320 Gewerbesteuer 60 Dr; 2200 Körperschaftsteuer 90 Dr; 4210 Miete 100 Dr.
  // G08 = −100 (Miete only); G14 = −60 − 90 = −150; G17 = 1000 − 100 − 150 = 750.
  const rows = evaluate(statementModel('DE', 'PROFIT_AND_LOSS'), new Map([['8400', cr(1000)], ['4320', dr(60)], ['2200', dr(90)], ['4210', dr(100)]]));
  t.same(totals(rows, ['G08', 'G14', 'G17']), { G08: '-100', G14: '-150', G17: '750' });
});

t.test('DE: Steuerrückstellungen are B.2 and passive latente Steuern E, apart from the sonstige Rückstellungen', async (t) => {
  // 0950 Pensionsrückstellung 100 Cr, 0956 Gewerbesteuerrückstellung 40 Cr, 0963 Körperschaftsteuerrückstellung 60 Cr,
  // 0970 sonstige Rückstellung 30 Cr, 0969 passive latente Steuern 20 Cr; Bank 1200 250 Dr.
  // PB1 100, PB2 40 + 60 = 100, PB3 30, PB 230, PE 20, PT 250 = AT 250.
  const rows = evaluate(statementModel('DE', 'BALANCE_SHEET'), new Map([
    ['0950', cr(100)], ['0956', cr(40)], ['0963', cr(60)], ['0970', cr(30)], ['0969', cr(20)], ['1200', dr(250)],
  ]));
  t.same(totals(rows, ['PB1', 'PB2', 'PB3', 'PB', 'PE', 'PT', 'AT']), { PB1: '100', PB2: '100', PB3: '30', PB: '230', PE: '20', PT: '250', AT: '250' });
});

t.test('DE: Altersversorgung, Kursdifferenzen, nicht abziehbare Vorsteuer, eingeforderte Einlagen, Schecks and Geldtransit', async (t) => {
  const guv = (code: string) => lineOf('DE', 'PROFIT_AND_LOSS', code);
  const bilanz = (code: string) => lineOf('DE', 'BALANCE_SHEET', code);
  t.same(['4160', '4165', '4169'].map(guv), ['G06B', 'G06B', 'G06B'], 'Versorgungskassen, Altersversorgung: soziale Abgaben und Altersversorgung');
  t.same(['4120', '4150', '4170'].map(guv), ['G06A', 'G06A', 'G06A'], 'Gehälter stay Löhne und Gehälter');
  t.same(['2150', '2170', '2179'].map(guv), ['G08', 'G08', 'G08'], 'Kursdifferenzen, nicht abziehbare Vorsteuer: sonstige betriebliche Aufwendungen');
  t.same(['2100', '2120', '2160', '2180'].map(guv), ['G13', 'G13', 'G13', 'G13'], 'Zinsen stay Zinsen');
  t.same([guv('2660'), guv('2650')], ['G04', 'G11'], 'Kursdifferenzen Ertrag: sonstige betriebliche Erträge; Zinserträge stay');
  t.same(['0810', '0819', '0830', '0838'].map(bilanz), ['AB25', 'AB25', 'AB25', 'AB25'], 'eingeforderte Einlagen: Forderungen');
  t.same(['0800', '0801', '0820', '0839'].map(bilanz), ['PA1', 'PA1', 'PA1', 'PA1'], 'nicht eingeforderte stay with the Gezeichnetes Kapital');
  t.same([bilanz('1330'), bilanz('1360')], ['AB4', 'AB4'], 'Schecks, Geldtransit: Kassenbestand und Guthaben');
  // 0810 eingefordert 250 Dr against 0800 Gezeichnetes Kapital 1000 Cr; 1330 Schecks 750 Dr: AB25 250, AB4 750, AT 1000.
  const rows = evaluate(statementModel('DE', 'BALANCE_SHEET'), new Map([['0810', dr(250)], ['0800', cr(1000)], ['1330', dr(750)]]));
  t.same(totals(rows, ['AB25', 'AB2', 'AB4', 'AT', 'PA1', 'PT']), { AB25: '250', AB2: '250', AB4: '750', AT: '1000', PA1: '1000', PT: '1000' });
});

t.test('FR: 4452 TVA due intracommunautaire is a tax debt', async (t) => {
  // 4452 TVA due intracommunautaire 200 Cr, 44566 TVA déductible 200 Dr (autoliquidation): B406 200, A20202 200.
  t.equal(lineOf('FR', 'BALANCE_SHEET', '445200'), 'B406');
  const rows = evaluate(statementModel('FR', 'BALANCE_SHEET'), new Map([['445200', cr(200)], ['445660', dr(200)]]));
  t.same(totals(rows, ['B406', 'A20202', 'A9', 'B9']), { B406: '200', A20202: '200', A9: '200', B9: '200' });
});

/** Codes under every prefix the models name, one and two digits deeper, padded to the chart's length. */
function codesUnder(prefixes: Iterable<string>, length: number): string[] {
  const out = new Set<string>();
  for (const prefix of prefixes) {
    for (const tail of ['', ...Array.from({ length: 110 }, (_, i) => (i < 10 ? String(i) : String(i - 10).padStart(2, '0')))]) {
      const code = (prefix + tail).padEnd(length, '0');
      if (code.length === length) out.add(code);
    }
  }
  return [...out];
}
const prefixesOf = (country: string, variant: string) => ['BALANCE_SHEET', 'PROFIT_AND_LOSS'].flatMap((s) =>
  statementModel(country, s as 'BALANCE_SHEET', variant).lines.flatMap((l) => (l.accounts ?? []).map((a) => a.prefix)));

t.test('ES: every account the PYMES model places, the NORMAL and ABREVIADO models place too', async (t) => {
  const codes = codesUnder(new Set(['PYMES', 'ABREVIADO', 'NORMAL'].flatMap((v) => prefixesOf('ES', v))), 7);
  const placedBy = (variant: string) => new Set(codes.filter((c) => unmapped(statementModel('ES', 'BALANCE_SHEET', variant), [c]).length === 0));
  const pymes = placedBy('PYMES');
  for (const variant of ['NORMAL', 'ABREVIADO']) {
    const placed = placedBy(variant);
    t.same([...pymes].filter((c) => !placed.has(c)), [], `${variant} places what PYMES places`);
  }
  // AA14 Fondo de comercio: 204 less its amortisation 2804 and impairment 2904 → 1000 − 100 − 50 = 850
  const rows = evaluate(statementModel('ES', 'BALANCE_SHEET', 'NORMAL'), new Map([['2040000', dr(1000)], ['2804000', cr(100)], ['2904000', cr(50)], ['1000000', cr(850)]]));
  t.same(totals(rows, ['AA14', 'AA1', 'AT', 'PT']), { AA14: '850', AA1: '850', AT: '850', PT: '850' });
});

t.test('ES legal lines: PYMES starts its activo corriente at I. Existencias; normal and abreviado have the pasivos vinculados, 774, 134..136', async (t) => {
  const described = (variant: string, statement: 'BALANCE_SHEET' | 'PROFIT_AND_LOSS', codes: string[]) =>
    codes.map((code) => statementModel('ES', statement, variant).lines.find((l) => l.code === code)?.description);
  t.same(described('PYMES', 'BALANCE_SHEET', ['AB1', 'AB2', 'AB7', 'PC0', 'PC1', 'PC5']),
    [undefined, 'I. Existencias.', 'VI. Efectivo y otros activos líquidos equivalentes.', undefined, 'I. Provisiones a corto plazo.', 'V. Periodificaciones a corto plazo.']);
  for (const variant of ['NORMAL', 'ABREVIADO']) {
    t.same(described(variant, 'BALANCE_SHEET', ['AB1', 'AB2', 'PC0', 'PC1', 'PC5']), [
      'I. Activos no corrientes mantenidos para la venta.', 'II. Existencias.',
      'I. Pasivos vinculados con activos no corrientes mantenidos para la venta.', 'II. Provisiones a corto plazo.', 'VI. Periodificaciones a corto plazo.',
    ], variant);
    t.same(described(variant, 'PROFIT_AND_LOSS', ['R12N', 'R12', 'R18']),
      ['12. Diferencia negativa de combinaciones de negocio.', '13. Otros resultados.', '19. Impuestos sobre beneficios.'], variant);
    t.same(['1330000', '1340000', '1341000', '1350000', '1360000', '1370000'].map((c) => lineOf('ES', 'BALANCE_SHEET', c, variant)), Array(6).fill('PA2'), `${variant} ajustes por cambios de valor`);
  }
  t.same(described('PYMES', 'PROFIT_AND_LOSS', ['R12N', 'R12', 'R18']), [undefined, '12. Otros resultados.', '18. Impuestos sobre beneficios.']);
  // Normal model: an asset held for sale 500 (5800000 Dr) financed by its linked liability 300 (5850000 Cr) and
  // capital 200; a negative goodwill 40 (7740000 Cr) and other results 10 (6780000 Dr) against the bank 30 (5720000 Dr).
  // Activo: AB1 500 + AB7 30 = 530. Pasivo corriente PC0 300. P&L: R12N 40, R12 −10, RA 30 = RD; PA 200 + 30 = 230.
  const balances = new Map([['5800000', dr(500)], ['5850000', cr(300)], ['1000000', cr(200)], ['7740000', cr(40)], ['6780000', dr(10)], ['5720000', dr(30)]]);
  const bs = evaluate(statementModel('ES', 'BALANCE_SHEET', 'NORMAL'), balances);
  t.same(totals(bs, ['AB1', 'AB', 'PC0', 'PC', 'PA', 'AT', 'PT']), { AB1: '500', AB: '530', PC0: '300', PC: '300', PA: '230', AT: '530', PT: '530' });
  const pnl = evaluate(statementModel('ES', 'PROFIT_AND_LOSS', 'NORMAL'), balances);
  t.same(totals(pnl, ['R12N', 'R12', 'RA', 'RD']), { R12N: '40', R12: '-10', RA: '30', RD: '30' });
});

/** Each country's official account codes: the plan's classes and code length, not only the master chart's accounts. */
const OFFICIAL: Record<string, { length: number; from: number; to: number }> = {
  ES: { length: 7, from: 1_000_000, to: 7_999_999 }, // PGC groups 1..7 (8 and 9 are the ECPN's)
  FR: { length: 6, from: 100_000, to: 799_999 }, // PCG classes 1..7
  DE: { length: 4, from: 0, to: 8_999 }, // SKR 03 classes 0..8 (9 are Vortragskonten)
  GB: { length: 4, from: 0, to: 9_999 },
  US: { length: 4, from: 1_000, to: 9_999 },
};

t.test('random codes from the official ranges: every code a model places keeps assets = equity and liabilities', async (t) => {
  for (const [country, range] of Object.entries(OFFICIAL)) {
    for (const variant of statementVariants(country)) {
      const bs = statementModel(country, 'BALANCE_SHEET', variant);
      const placed = (code: string) => unmapped(bs, [code]).length === 0 && ![bs, bs.companion!].some((m) => m.offStatement.some((o) => code.startsWith(o.prefix)));
      const code = fc.integer({ min: range.from, max: range.to }).map((n) => String(n).padStart(range.length, '0')).filter(placed);
      const entry = fc.record({ debit: code, credit: code, cents: fc.integer({ min: 1, max: 100_000_000 }) });
      holds(t, fc.property(fc.array(entry, { minLength: 1, maxLength: 30 }), (entries) => {
        const rows = evaluate(bs, balancesOf(entries));
        const [assets, equityAndLiabilities] = [bs.totals!.assets, bs.totals!.equityAndLiabilities].map((c) => rows.find((r) => r.code === c)!.amountTotal);
        expect(assets!.equals(equityAndLiabilities!), `${bs.key}: assets ${assets} ≠ equity and liabilities ${equityAndLiabilities}`);
      }));
    }
  }
});

/** The main account line a balance of the account lands on (read off evaluate(), not the model's terms). */
function accountLine(model: StatementModel, code: string, balance: AccountBalance): string | undefined {
  const main = new Set(model.lines.filter((l) => l.lineType === 'ACCOUNT_CALCULATION' && !l.detailOf).map((l) => l.code));
  return evaluate(model, new Map([[code, balance]])).find((r) => main.has(r.code) && !r.amountTotal.isZero())?.code;
}

/** The balance sheet's side a main line adds up to: A (the assets total) or L (the equity and liabilities total). */
function sides(model: StatementModel): Map<string, 'A' | 'L'> {
  const byCode = new Map(model.lines.map((l) => [l.code, l]));
  const out = new Map<string, 'A' | 'L'>();
  const walk = (code: string, side: 'A' | 'L'): void => {
    out.set(code, side);
    for (const ref of byCode.get(code)!.lines ?? []) walk(ref.code, side);
  };
  walk(model.totals!.assets, 'A');
  walk(model.totals!.equityAndLiabilities, 'L');
  return out;
}

// A contra account → the account it corrects (ES 2813 → 213, 2935 → 240, 4900 → 430; FR 2815 → 215, 491 → 41;
// SKR 03 Wertberichtigungen 0996..0999 → 1400 Forderungen).
const CORRECTS: Record<string, (code: string) => string | undefined> = {
  ES: (c) => /^2[89][012]/.test(c) || /^39/.test(c) ? c[0]! + c.slice(2) : /^29[345]/.test(c) ? '240' + c.slice(3) : /^29[678]/.test(c) ? '250' + c.slice(3)
    : /^49[03]/.test(c) ? '430' + c.slice(3) : undefined,
  // 49: the PCG's 491 clients, 4951/4955/4956/4958 comptes du groupe et associés, 4962/4965/4967/4968 débiteurs divers
  FR: (c) => /^(28|29|39|491|495[1568]|496[2578])/.test(c) ? c[0]! + c.slice(2) : undefined,
  DE: (c) => /^099[6-9]/.test(c) ? '1400' : undefined,
};

t.test('no contra account sits on the other side of the balance sheet from the accounts it corrects', async (t) => {
  for (const [country, corrects] of Object.entries(CORRECTS)) {
    const length = OFFICIAL[country]!.length;
    for (const variant of statementVariants(country)) {
      const bs = statementModel(country, 'BALANCE_SHEET', variant);
      const side = sides(bs);
      const contras = codesUnder(['28', '29', '39', '49', '0996', '0997', '0998', '0999'].filter((p) => corrects(p.padEnd(4, '0'))), length)
        .filter((c) => corrects(c) !== undefined);
      const wrong = contras.flatMap((contra) => {
        // the contra in credit against the corrected account in debit (an account split by sign, FR 451 groupe, is
        // corrected where it is a receivable)
        const own = accountLine(bs, contra, cr(1));
        const corrected = accountLine(bs, corrects(contra)!.padEnd(length, '0').slice(0, length), dr(1));
        if (!own || !corrected) return [];
        return side.get(own) === side.get(corrected) ? [] : [`${contra} on ${own} corrects ${corrected}`];
      });
      t.same(wrong, [], `${bs.key}: ${contras.length} contra codes`);
    }
  }
});

t.test('ES NORMAL: the deudas a largo plazo in the normal model\'s five items', async (t) => {
  const items = (variant: string) => statementModel('ES', 'BALANCE_SHEET', variant).lines.filter((l) => l.code.startsWith('PB2') && l.code.length === 4).map((l) => l.description);
  t.same(items('NORMAL'), ['1. Obligaciones y otros valores negociables.', '2. Deudas con entidades de crédito.', '3. Acreedores por arrendamiento financiero.', '4. Derivados.', '5. Otros pasivos financieros.']);
  t.same(items('PYMES'), ['1. Deudas con entidades de crédito.', '2. Acreedores por arrendamiento financiero.', '3. Otras deudas a largo plazo.']);
  // obligaciones 500 (1770000), a bank loan 300 (1700000), a derivative 50 (1760000), a loan from a third party 150
  // (1710000) against the bank 1 000: PB20 500, PB21 300, PB24 50, PB25 150, PB2 1 000 = PB = PT = AT.
  const rows = evaluate(statementModel('ES', 'BALANCE_SHEET', 'NORMAL'), new Map([
    ['1770000', cr(500)], ['1700000', cr(300)], ['1760000', cr(50)], ['1710000', cr(150)], ['5720000', dr(1000)],
  ]));
  t.same(totals(rows, ['PB20', 'PB21', 'PB22', 'PB24', 'PB25', 'PB2', 'PB', 'PT', 'AT']), { PB20: '500', PB21: '300', PB22: '0', PB24: '50', PB25: '150', PB2: '1000', PB: '1000', PT: '1000', AT: '1000' });
});

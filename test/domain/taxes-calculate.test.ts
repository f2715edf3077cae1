/**
 * Invoices computed by hand, one per country's rule. Each expected figure is worked out in the comment
 * above it; rounding is per rate on the document, halves away from zero, unless a test says otherwise.
 */
import t from 'tap';
import type { OrganisationCountry } from '../../domain/enums.ts';
import { BusinessError } from '../../domain/errors.ts';
import { MAX_AMOUNT } from '../../domain/money.ts';
import { MAX_DOCUMENT_LINES, calculateDocumentTaxes, type TaxLineInput } from '../../domain/taxes/calculate.ts';
import { resolveTreatment, salesTaxTreatment } from '../../domain/taxes/catalogue/index.ts';
import { TaxErrors } from '../../domain/taxes/errors.ts';

const line = (country: OrganisationCountry, treatment: string, quantity: string, unitPrice: string, discountPercent?: string): TaxLineInput =>
  ({ quantity, unitPrice, discountPercent, taxTreatment: resolveTreatment(country, treatment) });

const rowsOf = (taxes: ReturnType<typeof calculateDocumentTaxes>['taxes']) =>
  taxes.map((r) => [r.taxTreatmentCode, r.taxPercentage, r.taxBase, r.taxAmount, r.equivalenceSurchargePercentage, r.equivalenceSurchargeQuota]);

const goods = (l: TaxLineInput): TaxLineInput => ({ ...l, isService: false, subjectToWithholding: false });

t.test('ES: mixed rates, a discount, recargo de equivalencia on goods and IRPF 15 % on a professional service', async (t) => {
  const doc = calculateDocumentTaxes({
    country: 'ES', hasEquivalenceSurcharge: true, withholdingPercentage: '15',
    lines: [
      goods(line('ES', 'NAT-IVA21', '3', '33.33', '10')), // gross 99.99; discount 9.999 -> 10.00; net 89.99
      goods(line('ES', 'NAT-IVA10', '2', '12.345')), // gross 24.69; net 24.69
      goods(line('ES', 'NAT-IVA21', '1', '100', '5')), // gross 100.00; discount 5.00; net 95.00
      goods(line('ES', 'NAT-IVA4', '7', '1.15')), // gross 8.05; net 8.05
      // A professional service: IVA 21 % and IRPF, no recargo (LIVA art. 156: goods only). Net 123.45.
      { ...line('ES', 'NAT-IVA21', '1', '123.45'), isService: true },
    ],
  });
  t.same(doc.lines.map((l) => [l.totalGross, l.totalDiscount, l.totalNet, l.equivalenceSurchargePercentage, l.withholdingPercentage]), [
    ['99.99', '10.00', '89.99', '5.2', '0'], ['24.69', '0.00', '24.69', '1.4', '0'], ['100.00', '5.00', '95.00', '5.2', '0'], ['8.05', '0.00', '8.05', '0.5', '0'],
    ['123.45', '0.00', '123.45', '0', '15'],
  ]);
  t.same(rowsOf(doc.taxes), [
    // 21 % goods: base 89.99 + 95.00 = 184.99; IVA 38.8479 -> 38.85; RE 5.2 % 9.61948 -> 9.62
    ['NAT-IVA21', '21', '184.99', '38.85', '5.2', '9.62'],
    // 10 %: base 24.69; IVA 2.469 -> 2.47; RE 1.4 % 0.34566 -> 0.35
    ['NAT-IVA10', '10', '24.69', '2.47', '1.4', '0.35'],
    // 4 %: base 8.05; IVA 0.322 -> 0.32; RE 0.5 % 0.04025 -> 0.04
    ['NAT-IVA4', '4', '8.05', '0.32', '0.5', '0.04'],
    // 21 % service: base 123.45; IVA 25.9245 -> 25.92; no recargo
    ['NAT-IVA21', '21', '123.45', '25.92', '0', '0.00'],
  ]);
  // IRPF 15 % of the service alone, 123.45 = 18.5175 -> 18.52
  t.same(doc.withholdings, [{ taxCode: 'IRPF15', withholdingPercentage: '15', withholdingBase: '123.45', withholdingAmount: '18.52' }]);
  t.same(doc.totals, {
    totalGross: '356.18', // 99.99 + 24.69 + 100.00 + 8.05 + 123.45
    totalDiscount: '15.00', // 10.00 + 5.00
    totalNet: '341.18',
    totalVatBase: '341.18',
    totalVat: '67.56', // 38.85 + 2.47 + 0.32 + 25.92
    totalFeeSurcharge: '10.01', // 9.62 + 0.35 + 0.04
    totalWithholding: '18.52',
    totalLiquidNoWithholding: '418.75', // 341.18 + 67.56 + 10.01
    totalLiquid: '400.23', // 418.75 - 18.52
  });
});

t.test('ES: no recargo de equivalencia on services (LIVA art. 156: deliveries of goods only)', async (t) => {
  // A service line by its own flag, or by its treatment's: 100.00 x 21 % = 21.00, no recargo.
  const byLine = calculateDocumentTaxes({ country: 'ES', hasEquivalenceSurcharge: true, lines: [{ ...line('ES', 'NAT-IVA21', '1', '100'), isService: true }] });
  t.match(byLine.totals, { totalVat: '21.00', totalFeeSurcharge: '0.00', totalLiquid: '121.00' });
  t.same(byLine.taxes.map((r) => r.hasEquivalenceSurcharge), [false]);
  const serviceTreatment = resolveTreatment('ES', 'NAT-IVA21');
  const asService = { ...serviceTreatment, treatment: { ...serviceTreatment.treatment, isService: true } };
  t.equal(calculateDocumentTaxes({ country: 'ES', hasEquivalenceSurcharge: true, lines: [{ quantity: '1', unitPrice: '100', taxTreatment: asService }] }).totals.totalFeeSurcharge, '0.00');
  // Goods: 100.00 x 5.2 % = 5.20.
  t.equal(calculateDocumentTaxes({ country: 'ES', hasEquivalenceSurcharge: true, lines: [line('ES', 'NAT-IVA21', '1', '100')] }).totals.totalFeeSurcharge, '5.20');
});

t.test('ES: the quota is taken once per rate on the document, halves away from zero', async (t) => {
  // Three lines of 0.07 at 21 %: per line 0.0147 -> 0.01 each (0.03); per rate 0.21 x 21 % = 0.0441 -> 0.04.
  const perRate = calculateDocumentTaxes({ country: 'ES', lines: [1, 2, 3].map(() => line('ES', 'NAT-IVA21', '1', '0.07')) });
  t.equal(perRate.totals.totalVat, '0.04');
  // 0.50 at 21 % = 0.105: away from zero 0.11 (banker's rounding would give 0.10); a credit note -0.11.
  t.equal(calculateDocumentTaxes({ country: 'ES', lines: [line('ES', 'NAT-IVA21', '1', '0.50')] }).totals.totalVat, '0.11');
  t.equal(calculateDocumentTaxes({ country: 'ES', lines: [line('ES', 'NAT-IVA21', '-1', '0.50')] }).totals.totalVat, '-0.11');
  // No recargo unless the customer is in the regime.
  t.equal(calculateDocumentTaxes({ country: 'ES', lines: [line('ES', 'NAT-IVA21', '1', '100')] }).totals.totalFeeSurcharge, '0.00');
});

t.test('FR: 20 % and 5.5 % per rate on the document', async (t) => {
  const doc = calculateDocumentTaxes({
    country: 'FR',
    lines: [
      line('FR', 'NAT-TVA20', '4', '12.49'), // 49.96
      line('FR', 'NAT-TVA5_5', '3', '7.99'), // 23.97
      line('FR', 'NAT-TVA20', '1', '150', '12.5'), // gross 150.00; discount 18.75; net 131.25
    ],
  });
  t.same(rowsOf(doc.taxes), [
    ['NAT-TVA20', '20', '181.21', '36.24', '0', '0.00'], // 49.96 + 131.25 = 181.21; x 20 % = 36.242 -> 36.24
    ['NAT-TVA5_5', '5.5', '23.97', '1.32', '0', '0.00'], // 23.97 x 5.5 % = 1.31835 -> 1.32
  ]);
  // gross 49.96 + 23.97 + 150.00 = 223.93; net 223.93 - 18.75 = 205.18; TVA 36.24 + 1.32 = 37.56; TTC 242.74
  t.match(doc.totals, { totalGross: '223.93', totalDiscount: '18.75', totalNet: '205.18', totalVat: '37.56', totalLiquid: '242.74', totalWithholding: '0.00' });
});

t.test('DE: 19 % and 7 % per rate on the invoice', async (t) => {
  const doc = calculateDocumentTaxes({
    country: 'DE',
    lines: [line('DE', 'NAT-UST19', '10', '19.99'), line('DE', 'NAT-UST7', '2', '3.45'), line('DE', 'NAT-UST7', '1', '0.99')],
  });
  t.same(rowsOf(doc.taxes), [
    ['NAT-UST19', '19', '199.90', '37.98', '0', '0.00'], // 199.90 x 19 % = 37.981 -> 37.98
    ['NAT-UST7', '7', '7.89', '0.55', '0', '0.00'], // 6.90 + 0.99 = 7.89; x 7 % = 0.5523 -> 0.55
  ]);
  // net 199.90 + 7.89 = 207.79; USt 37.98 + 0.55 = 38.53; gross 246.32
  t.match(doc.totals, { totalNet: '207.79', totalVat: '38.53', totalLiquid: '246.32' });
});

const GB_LINES = [line('GB', 'NAT-VAT20', '2', '16.49'), line('GB', 'NAT-VAT5', '1', '5.59'), line('GB', 'NAT-VAT0', '2', '2.50')];

t.test('GB: invoice level, VAT per rate to the nearest penny (VATREC12030), retailers included', async (t) => {
  const doc = calculateDocumentTaxes({ country: 'GB', lines: GB_LINES });
  t.same(rowsOf(doc.taxes), [
    ['NAT-VAT20', '20', '32.98', '6.60', '0', '0.00'], // 32.98 x 20 % = 6.596 -> 6.60
    ['NAT-VAT5', '5', '5.59', '0.28', '0', '0.00'], // 5.59 x 5 % = 0.2795 -> 0.28
    ['NAT-VAT0', '0', '5.00', '0.00', '0', '0.00'],
  ]);
  // net 32.98 + 5.59 + 5.00 = 43.57; VAT 6.60 + 0.28 = 6.88; total 50.45
  t.match(doc.totals, { totalNet: '43.57', totalVat: '6.88', totalLiquid: '50.45' });
});

t.test('GB: on request, the invoice\'s total VAT rounded down (Notice 700 para. 17.5; VATREC12010)', async (t) => {
  const doc = calculateDocumentTaxes({ country: 'GB', rounding: { level: 'DOCUMENT_TOTAL', mode: 'DOWN' }, lines: GB_LINES });
  // 6.596 + 0.2795 = 6.8755 -> down 6.87 (per rate rounded down would give 6.59 + 0.27 = 6.86). The rows share
  // it: nearest 6.60 and 0.28 are one penny over; the penny comes off the row rounded up furthest (6.596 -> 6.60).
  t.equal(doc.totals.totalVat, '6.87');
  t.same(doc.taxes.map((r) => r.taxAmount), ['6.59', '0.28', '0.00']);
  t.match(doc.totals, { totalLiquid: '50.44' }); // 43.57 + 6.87
  t.equal(doc.rounding.level, 'DOCUMENT_TOTAL');
});

t.test('GB: an organisation that keeps line-level rounding, as VAT Notice 700 allows', async (t) => {
  const lines = [1, 2, 3].map(() => line('GB', 'NAT-VAT20', '1', '0.07'));
  // Line level, nearest penny: 0.07 x 20 % = 0.014 -> 0.01 per line, 0.03 in all; invoice level 0.21 x 20 % = 0.042 -> 0.04.
  const lineLevel = calculateDocumentTaxes({ country: 'GB', rounding: { level: 'LINE', mode: 'HALF_AWAY_FROM_ZERO' }, lines });
  t.equal(lineLevel.totals.totalVat, '0.03');
  t.equal(calculateDocumentTaxes({ country: 'GB', lines }).totals.totalVat, '0.04');
});

t.test('intra-EU supplies with reverse charge: base counted, no tax, no recargo', async (t) => {
  const doc = calculateDocumentTaxes({
    country: 'ES', hasEquivalenceSurcharge: true,
    lines: [line('ES', 'EU-SERVICES', '10', '85'), line('ES', 'EU-GOODS', '2', '120.50', '10')],
  });
  t.same(rowsOf(doc.taxes), [
    ['EU-SERVICES', '0', '850.00', '0.00', '0', '0.00'], // 10 x 85
    ['EU-GOODS', '0', '216.90', '0.00', '0', '0.00'], // 241.00 - 24.10
  ]);
  t.match(doc.totals, { totalNet: '1066.90', totalVatBase: '1066.90', totalVat: '0.00', totalFeeSurcharge: '0.00', totalLiquid: '1066.90' });
});

t.test('an export: base counted, no tax', async (t) => {
  const doc = calculateDocumentTaxes({ country: 'DE', lines: [line('DE', 'EXPORT', '5', '40'), line('DE', 'NAT-UST19', '1', '10')] });
  // export 200.00, no USt; domestic 10.00 x 19 % = 1.90; total 211.90
  t.same(rowsOf(doc.taxes), [['EXPORT', '0', '200.00', '0.00', '0', '0.00'], ['NAT-UST19', '19', '10.00', '1.90', '0', '0.00']]);
  t.match(doc.totals, { totalVatBase: '210.00', totalVat: '1.90', totalLiquid: '211.90' });
});

t.test('US: a sales tax rate the organisation sets', async (t) => {
  const taxTreatment = salesTaxTreatment('US', { code: 'NYC', name: 'New York City', jurisdiction: 'US-NY', percentage: '8.875' });
  const doc = calculateDocumentTaxes({ country: 'US', lines: [{ quantity: '1', unitPrice: '100', taxTreatment }] });
  // 100.00 x 8.875 % = 8.875 -> 8.88
  t.match(doc.totals, { totalVat: '8.88', totalLiquid: '108.88' });
  t.match(doc.taxes[0], { taxTreatmentCode: 'SALES-NYC', taxType: 'NOT_SPECIFIED' });
});

t.test('a currency without decimals rounds to whole units', async (t) => {
  // 3 x 333 = 999 at 21 % = 209.79 -> 210
  const doc = calculateDocumentTaxes({ country: 'ES', precision: 0, lines: [line('ES', 'NAT-IVA21', '3', '333')] });
  t.match(doc.totals, { totalNet: '999', totalVat: '210', totalLiquid: '1209' });
});

t.test('refusals are coded errors', async (t) => {
  const one = [line('ES', 'NAT-IVA21', '1', '1')];
  t.throws(() => calculateDocumentTaxes({ country: 'ES', withholdingPercentage: '12', lines: one }), new BusinessError(TaxErrors.withholdingNotAllowed, { percentage: '12', country: 'ES' }));
  t.throws(() => calculateDocumentTaxes({ country: 'FR', withholdingPercentage: '15', lines: [line('FR', 'NAT-TVA20', '1', '1')] }), new BusinessError(TaxErrors.withholdingNotAllowed, { percentage: '15', country: 'FR' }));
  t.throws(() => calculateDocumentTaxes({ country: 'ES', lines: Array.from({ length: MAX_DOCUMENT_LINES + 1 }, () => one[0]) }), new BusinessError(TaxErrors.tooManyDocumentLines, { max: MAX_DOCUMENT_LINES }));
  t.throws(() => calculateDocumentTaxes({ country: 'ES', lines: [{ ...one[0], quantity: '1e3' }] }), new BusinessError(TaxErrors.invalidTaxLine, { line: 1, field: 'totalQuantity', reason: 'amountFormat' }));
  t.throws(() => calculateDocumentTaxes({ country: 'ES', lines: [{ ...one[0], discountPercent: '100.5' }] }), new BusinessError(TaxErrors.invalidTaxLine, { line: 1, field: 'firstDiscount', reason: 'percentage' }));
  t.throws(() => calculateDocumentTaxes({ country: 'ES', lines: [{ ...one[0], unitPrice: '-1' }] }), new BusinessError(TaxErrors.invalidTaxLine, { line: 1, field: 'unitPrice', reason: 'amountFormat' }));
  t.equal(calculateDocumentTaxes({ country: 'ES', lines: [] }).totals.totalLiquid, '0.00', 'an empty document totals zero');
});

t.test('a document with any total or per-rate amount beyond MAX_AMOUNT is refused when computed', async (t) => {
  const big = '600000000000000';
  const max = MAX_AMOUNT.toString();
  // Two 21 % lines of 6e14 make a 21 % base of 1.2e15; an exempt credit of 6e14 keeps every header total within
  // the limit (net 6e14; liquid 1.2e15 x 1.21 - 6e14 = 8.52e14), but the rate's row could not be posted.
  t.throws(() => calculateDocumentTaxes({ country: 'ES', lines: [line('ES', 'NAT-IVA21', '1', big), line('ES', 'NAT-IVA21', '1', big), line('ES', 'EXEMPT', '-1', big)] }),
    new BusinessError(TaxErrors.documentTotalTooLarge, { field: 'NAT-IVA21.taxBase', total: '1200000000000000.00', max }));
  // Two lines of 6e14 wholly discounted: net and liquid 0, but the gross total is 1.2e15.
  t.throws(() => calculateDocumentTaxes({ country: 'ES', lines: [line('ES', 'NAT-IVA21', '1', big, '100'), line('ES', 'NAT-IVA21', '1', big, '100')] }),
    new BusinessError(TaxErrors.documentTotalTooLarge, { field: 'totalGross', total: '1200000000000000.00', max }));
});

t.test('a line of another country\'s treatment, or IVA mixed with IGIC, is a coded error', async (t) => {
  t.throws(() => calculateDocumentTaxes({ country: 'FR', lines: [line('FR', 'NAT-TVA20', '1', '1'), line('DE', 'NAT-UST19', '1', '1')] }),
    new BusinessError(TaxErrors.taxTreatmentOfAnotherCountry, { line: 2, code: 'NAT-UST19', treatmentCountry: 'DE', country: 'FR' }));
  const caRate = salesTaxTreatment('CA', { code: 'ON', name: 'HST', jurisdiction: 'CA-ON', percentage: '13' });
  t.throws(() => calculateDocumentTaxes({ country: 'US', lines: [{ quantity: '1', unitPrice: '1', taxTreatment: caRate }] }),
    new BusinessError(TaxErrors.taxTreatmentOfAnotherCountry, { line: 1, code: 'SALES-ON', treatmentCountry: 'CA', country: 'US' }));
  t.throws(() => calculateDocumentTaxes({ country: 'ES', lines: [line('ES', 'NAT-IVA21', '1', '1'), line('ES', 'EXEMPT', '1', '1'), line('ES', 'NAT-IGIC7', '1', '1')] }),
    new BusinessError(TaxErrors.taxSystemsMixed, { line: 3, taxType: 'IGIC', otherTaxType: 'IVA' }));
  // IGIC with its own exempt treatment is one system.
  t.match(calculateDocumentTaxes({ country: 'ES', lines: [line('ES', 'NAT-IGIC7', '1', '100'), line('ES', 'IGIC-EXEMPT', '1', '1')] }).totals, { totalVat: '7.00' });
});

t.test('an organisation\'s sales tax rate: a percentage from 0 to 100 with at most 4 decimals, one rate per code', async (t) => {
  const rate = (percentage: string) => ({ code: 'NYC', name: 'New York City', jurisdiction: 'US-NY', percentage });
  for (const percentage of ['-1', 'abc', '100.5', '8.87501', '', '1e2']) {
    t.throws(() => salesTaxTreatment('US', rate(percentage)), new BusinessError(TaxErrors.invalidSalesTaxRate, { code: 'NYC', percentage }), percentage);
  }
  t.equal(salesTaxTreatment('CA', rate('100')).tax.percentage, '100');
  t.equal(salesTaxTreatment('CA', rate('0')).tax.percentage, '0');
  const lines = [{ quantity: '1', unitPrice: '1', taxTreatment: salesTaxTreatment('US', rate('8.875')) }, { quantity: '1', unitPrice: '1', taxTreatment: salesTaxTreatment('US', rate('4.5')) }];
  t.throws(() => calculateDocumentTaxes({ country: 'US', lines }), new BusinessError(TaxErrors.taxCodeWithTwoRates, { line: 2, code: 'SALES-NYC', percentage: '4.5', otherPercentage: '8.875' }));
});

t.test('a rounding the country\'s law does not allow is a coded error', async (t) => {
  const refused = (country: OrganisationCountry, treatment: string, level: 'LINE' | 'DOCUMENT_PER_RATE' | 'DOCUMENT_TOTAL', mode: 'HALF_AWAY_FROM_ZERO' | 'DOWN') =>
    t.throws(() => calculateDocumentTaxes({ country, rounding: { level, mode }, lines: [line(country, treatment, '1', '1')] }), new BusinessError(TaxErrors.roundingNotAllowed, { country, level, mode }), `${country} ${level} ${mode}`);
  // Euro countries round to the nearest cent, never down.
  for (const [country, treatment] of [['ES', 'NAT-IVA21'], ['FR', 'NAT-TVA20'], ['DE', 'NAT-UST19'], ['IE', 'NAT-VAT23']] as const) {
    refused(country, treatment, 'DOCUMENT_PER_RATE', 'DOWN');
    refused(country, treatment, 'LINE', 'DOWN');
    refused(country, treatment, 'DOCUMENT_TOTAL', 'DOWN');
  }
  // GB: never line amounts (or each rate) rounded down to whole pennies; only the invoice's total.
  refused('GB', 'NAT-VAT20', 'LINE', 'DOWN');
  refused('GB', 'NAT-VAT20', 'DOCUMENT_PER_RATE', 'DOWN');
  t.equal(calculateDocumentTaxes({ country: 'GB', rounding: { level: 'DOCUMENT_TOTAL', mode: 'DOWN' }, lines: [line('GB', 'NAT-VAT20', '1', '0.99')] }).totals.totalVat, '0.19', '0.198 -> down 0.19');
});

t.test('a second discount compounds with the first to the cent: net = round(gross x (1 - a)(1 - b))', async (t) => {
  const big = { ...line('ES', 'NAT-IVA21', '10', '100000.00', '12.35'), secondDiscountPercent: '7.77' };
  // 1000000 x 0.8765 x 0.9223 = 808395.95 exactly; a combined 19.1604 % (four decimals) would give 191604.00 off.
  t.match(calculateDocumentTaxes({ country: 'ES', lines: [big] }).lines[0], { totalGross: '1000000.00', totalDiscount: '191604.05', totalNet: '808395.95' });
  t.match(calculateDocumentTaxes({ country: 'ES', lines: [{ ...big, discountPercent: '0' }] }).lines[0], { totalDiscount: '77700.00' }, 'the second alone');
  t.throws(() => calculateDocumentTaxes({ country: 'ES', lines: [{ ...big, secondDiscountPercent: '101' }] }), new BusinessError(TaxErrors.invalidTaxLine, { line: 1, field: 'secondDiscount', reason: 'percentage' }));
});

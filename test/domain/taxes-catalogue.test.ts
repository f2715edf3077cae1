/** The tax catalogues: the rates each country has, treatments that post to real accounts of its chart, stable ids. */
import t from 'tap';
import { OrganisationCountry } from '../../domain/enums.ts';
import { masterChartFor } from '../../domain/reference/charts.ts';
import {
  TAX_CATALOGUES, catalogueProblems, resolveTreatment, taxCatalogueFor, taxIdOf, taxTreatmentIdOf,
} from '../../domain/taxes/catalogue/index.ts';
import { BusinessError } from '../../domain/errors.ts';
import { TaxErrors } from '../../domain/taxes/errors.ts';
import { TaxType } from '../../domain/taxes/enums.ts';

const rates = (country: OrganisationCountry, taxType: string) =>
  taxCatalogueFor(country).taxes.filter((x) => x.taxType === taxType && x.group !== 'EXEMPT').map((x) => x.percentage);

t.test('each country has the rates of its law', async (t) => {
  // No 0 % IVA: RDL 4/2024's tipo cero ended on 30-9-2024 (4 % again from 1-1-2025).
  t.same(rates('ES', 'IVA'), ['21', '10', '4']);
  t.same(taxCatalogueFor('ES').taxes.filter((x) => x.taxType === 'IVA' && x.group !== 'EXEMPT').map((x) => x.equivalenceSurchargePercentage), ['5.2', '1.4', '0.5']);
  t.same(rates('ES', 'IGIC'), ['7', '3', '0', '9.5', '15']);
  t.same(rates('ES', 'IRPF'), ['15', '7', '19']);
  t.same(rates('FR', 'TVA'), ['20', '10', '5.5', '2.1']);
  t.same(rates('DE', 'UST'), ['19', '7']);
  t.same(rates('GB', 'NOT_SPECIFIED'), ['20', '5', '0']);
  t.same(rates('IE', 'NOT_SPECIFIED'), ['23', '13.5', '9', '0']);
  for (const country of ['US', 'CA'] as const) {
    t.same(taxCatalogueFor(country).taxes.map((x) => x.percentage), ['0'], `${country}: no invented sales tax rate, only the untaxed export`);
    t.ok(taxCatalogueFor(country).ratesSetByOrganisation, `${country}: rates set by the organisation`);
  }
});

t.test('every catalogue is consistent and uses Sage\'s TaxType values', async (t) => {
  for (const catalogue of Object.values(TAX_CATALOGUES)) {
    t.same(catalogueProblems(catalogue), [], catalogue.country);
    for (const x of catalogue.taxes) t.ok(TaxType.includes(x.taxType), `${catalogue.country} ${x.code}: ${x.taxType}`);
  }
});

t.test('every treatment posts to posting lines of the country\'s chart, output tax and input tax', async (t) => {
  for (const country of OrganisationCountry) {
    const chart = masterChartFor(country);
    const line = (code: string) => chart.lines.find((l) => l.code === code);
    const catalogue = taxCatalogueFor(country);
    for (const x of catalogue.treatments) {
      t.match(line(x.outputAccountCode), { accountLevel: 'SUB_ACCOUNT', subAccountType: 'OUTPUT_TAX' }, `${country} ${x.code} output ${x.outputAccountCode}`);
      // US sales tax has no input tax (the buyer's tax is a cost): its input account is the payable one.
      if (country !== 'US') t.match(line(x.inputAccountCode), { accountLevel: 'SUB_ACCOUNT', subAccountType: 'INPUT_TAX' }, `${country} ${x.code} input ${x.inputAccountCode}`);
    }
    if (catalogue.withholdingAccountCode) t.match(line(catalogue.withholdingAccountCode), { accountLevel: 'SUB_ACCOUNT' }, `${country} withholding account`);
  }
});

t.test('the accounts a Spanish, French and German accountant expects', async (t) => {
  t.match(resolveTreatment('ES', 'NAT-IVA21').treatment, { outputAccountCode: '4770000', inputAccountCode: '4720000', hasSurcharge: true, taxType: 'IVA', admitsCashVAT: true, transcendenceKey: '01' });
  t.match(resolveTreatment('FR', 'NAT-TVA20').treatment, { outputAccountCode: '445710', inputAccountCode: '445660', hasSurcharge: false, taxType: 'TVA' });
  t.match(resolveTreatment('DE', 'NAT-UST19').treatment, { outputAccountCode: '1776', inputAccountCode: '1576', taxType: 'UST' });
  t.match(resolveTreatment('DE', 'NAT-UST7').treatment, { outputAccountCode: '1771', inputAccountCode: '1571' });
  t.match(resolveTreatment('GB', 'NAT-VAT20').treatment, { outputAccountCode: '2200', inputAccountCode: '2201' });
  t.match(resolveTreatment('ES', 'EU-GOODS').treatment, { kind: 'INTRA_EU_GOODS', isIntracomunity: true, isService: false, intraKey: 'E', registerType: 'ISSUED', hasSurcharge: false });
  t.match(resolveTreatment('ES', 'EU-SERVICES').treatment, { kind: 'INTRA_EU_SERVICES', isIntracomunity: true, isService: true, intraKey: 'S' });
  t.match(resolveTreatment('ES', 'EXPORT').treatment, { kind: 'EXPORT', isIntracomunity: false, transcendenceKey: '02' });
  t.match(resolveTreatment('ES', 'NAT-IGIC7').treatment, { taxType: 'IGIC', hasSurcharge: false });
  t.notOk(taxCatalogueFor('GB').treatments.some((x) => x.isIntracomunity), 'GB has left the EU VAT area');
});

t.test('ids derive from the organisation and the code: stable, and distinct across organisations and kinds', async (t) => {
  const a = '11111111-1111-4111-8111-111111111111';
  const b = '22222222-2222-4222-8222-222222222222';
  t.equal(taxIdOf(a, 'IVA21'), taxIdOf(a, 'IVA21'));
  t.not(taxIdOf(a, 'IVA21'), taxIdOf(b, 'IVA21'));
  t.not(taxIdOf(a, 'EXEMPT'), taxTreatmentIdOf(a, 'EXEMPT'));
  const ids = taxCatalogueFor('ES').treatments.map((x) => taxTreatmentIdOf(a, x.code));
  t.equal(new Set(ids).size, ids.length, 'one id per treatment');
});

t.test('an unknown treatment is a coded error', async (t) => {
  t.throws(() => resolveTreatment('FR', 'NAT-IVA21'), new BusinessError(TaxErrors.taxTreatmentNotFound, { code: 'NAT-IVA21', country: 'FR' }));
  t.throws(() => resolveTreatment('ES', 'NAT-IVA0'), new BusinessError(TaxErrors.taxTreatmentNotFound, { code: 'NAT-IVA0', country: 'ES' }), 'the expired 0 % IVA is no treatment');
});

/**
 * The accounts a sales posting needs exist in each country's installed chart: every treatment's output and input
 * tax account, the withholding account, every set-up role's account, and the sales account of every role a
 * country's treatments post to (salesAccountRoleFor).
 */
import t from 'tap';
import { OrganisationCountry } from '../../domain/enums.ts';
import { POSTING_LEVEL } from '../../domain/accounting/enums.ts';
import { masterChartFor } from '../../domain/reference/charts.ts';
import { CHART_DEFAULT_ACCOUNTS } from '../../domain/reference/chart-defaults.ts';
import { salesTaxTreatment, taxCatalogueFor } from '../../domain/taxes/catalogue/index.ts';
import { salesAccountRoleFor } from '../../domain/taxes/posting.ts';

const SALES_TAX = { code: 'S1', name: 'Sales tax', jurisdiction: 'X', percentage: '5' };

for (const country of OrganisationCountry) {
  t.test(`${country}: the posting accounts are posting lines of the installed chart`, async (t) => {
    const chart = masterChartFor(country);
    const postable = new Set(chart.lines.filter((l) => l.accountLevel === POSTING_LEVEL).map((l) => l.code));
    const catalogue = taxCatalogueFor(country);
    const treatments = catalogue.ratesSetByOrganisation ? [salesTaxTreatment(country as 'US' | 'CA', SALES_TAX).treatment] : catalogue.treatments;
    t.ok(treatments.length > 0, 'the country has treatments');
    const roles = CHART_DEFAULT_ACCOUNTS[chart.key];
    for (const treatment of treatments) {
      t.ok(postable.has(treatment.outputAccountCode), `${treatment.code} output ${treatment.outputAccountCode}`);
      t.ok(postable.has(treatment.inputAccountCode), `${treatment.code} input ${treatment.inputAccountCode}`);
      const role = salesAccountRoleFor(treatment.kind);
      t.ok(roles[role] !== undefined && postable.has(roles[role]!), `${treatment.code} (${treatment.kind}) sells to the ${role} account ${roles[role]}`);
    }
    if (catalogue.withholdingAccountCode) t.ok(postable.has(catalogue.withholdingAccountCode), `withholding ${catalogue.withholdingAccountCode}`);
    for (const [role, code] of Object.entries(roles)) t.ok(postable.has(code!), `role ${role}: ${code}`);
  });
}

t.test('salesAccountRoleFor: domestic and exempt to the sales account, intra-EU and exports to their own', async (t) => {
  t.same(
    (['DOMESTIC', 'EXEMPT', 'INTRA_EU_GOODS', 'INTRA_EU_SERVICES', 'EXPORT', 'OUTSIDE_SCOPE'] as const).map(salesAccountRoleFor),
    ['saleProducts', 'saleProducts', 'intracommunity', 'intracommunity', 'foreign', 'foreign'],
  );
});

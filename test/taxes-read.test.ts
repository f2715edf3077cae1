/**
 * The organisation's taxes, tax treatments and tax groups, installed with it from its country's catalogue, read
 * as Sage clients read them (pm-089, 090, 129, 146, 147): filtered by taxType and percentage, treatments by
 * taxCode, accounts through their treatment, products' taxes through their tax group; other countries' rates;
 * another organisation's rows unreadable; a product's tax group must be the organisation's.
 */
import { randomUUID } from 'node:crypto';
import t from 'tap';
import { derivedId } from '../domain/ids.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const { ok, refused } = graphqlAnswers(api);
const { identity, commands, daemon } = api.service;

async function organisationIn(country: string) {
  const org = await commands.createOrganisation({}, { name: `Taxes ${country}`, country: country as never });
  await daemon.waitFor(org.position);
  const email = `admin-${randomUUID().slice(0, 8)}@example.com`;
  await identity.createUser(org.id, email, 'a-long-password', 'admin');
  const token = await identity.issueToken(org.id, email, api.clientId, 'full_access');
  return { id: org.id, headers: { Authorization: `Bearer ${token.access_token}`, 'X-Site': org.id } };
}

const rates = (nodes: { percentage: string; equivalenceSurchargePercentage: string }[]) => nodes.map((n) => [Number(n.percentage), Number(n.equivalenceSurchargePercentage)]);

t.test('ES: taxes by taxType and percentage, with recargo and group', async (t) => {
  const iva = (await ok(`{ taxes(where: { taxType: { eq: IVA } }, order: [{ percentage: DESC }]) { totalCount nodes { id code name percentage equivalenceSurchargePercentage taxType taxGroupId groupName group { code name } } } }`)).taxes;
  t.same(rates(iva.nodes), [[21, 5.2], [10, 1.4], [4, 0.5], [0, 0]], 'IVA 21/10/4/0 with recargo 5.2/1.4/0.5');
  t.equal(iva.nodes[0].groupName, 'Standard');
  t.same(iva.nodes[0].group, { code: 'STANDARD', name: 'Standard' });
  t.equal(iva.nodes[0].id, derivedId(api.organisationId, 'tax', 'IVA21'), 'the id derived from the organisation');
  const by21 = (await ok(`{ taxes(where: { percentage: { eq: 21 } }) { edges { node { id name percentage } } } }`)).taxes.edges;
  t.same(by21.map((e: any) => e.node.name), ['IVA 21 %']);
  const igic = (await ok(`{ taxes(where: { taxType: { eq: IGIC } }) { totalCount } }`)).taxes;
  t.equal(igic.totalCount, 6, 'the Canaries\' IGIC rates');
});

t.test('ES: tax treatments by taxCode, with their accounts; accounts through their treatment', async (t) => {
  const treatments = (await ok(`{ taxTreatments(where: { taxCode: { eq: "IVA21" } }) { nodes {
    id code description taxCode inactive admitsCashVAT hasPercentageCompensation hasSurcharge intraKey invoiceTypeId isImplicit isIntracomunity
    isService isState regimeType registerType taxGroupId taxGroupName taxOperationTypeId taxOperationTypeName taxType transcendenceKey
    outputAccountingAccount { code accountLevel accountType } inputAccountingAccount { code }
  } } }`)).taxTreatments.nodes;
  t.equal(treatments.length, 1);
  const [nat] = treatments;
  t.match(nat, {
    code: 'NAT-IVA21', taxCode: 'IVA21', inactive: false, admitsCashVAT: true, hasSurcharge: true, isIntracomunity: false, intraKey: null, invoiceTypeId: null,
    isState: null, regimeType: 'GENERAL', registerType: 'BOTH', taxType: 'IVA', transcendenceKey: '01', taxGroupName: 'Standard', taxOperationTypeId: null,
    outputAccountingAccount: { code: '4770000', accountLevel: 'SUB_ACCOUNT' }, inputAccountingAccount: { code: '4720000' },
  });
  const intra = (await ok(`{ taxTreatments(where: { isIntracomunity: { eq: true } }, order: [{ code: ASC }]) { nodes { code intraKey registerType } } }`)).taxTreatments.nodes;
  t.same(intra, [{ code: 'EU-GOODS', intraKey: 'E', registerType: 'ISSUED' }, { code: 'EU-SERVICES', intraKey: 'S', registerType: 'ISSUED' }]);
  const igic = (await ok(`{ taxTreatments(where: { taxCode: { eq: "IGIC7" } }) { nodes { outputAccountingAccount { code } inputAccountingAccount { code } } } }`)).taxTreatments.nodes;
  t.same(igic, [{ outputAccountingAccount: { code: '4771000' }, inputAccountingAccount: { code: '4721000' } }], 'IGIC in its own accounts');

  await ok(`mutation($id: UUID) { createAccountingAccount(input: { code: "7000010", name: "Ventas IVA 21", taxTreatmentId: $id }) { id } }`, { id: nat.id });
  const accounts = (await ok(`{ accountingAccounts(where: { taxTreatment: { taxCode: { eq: "IVA21" } } }) { nodes { code taxTreatment { code taxCode } } } }`)).accountingAccounts.nodes;
  t.same(accounts, [{ code: '7000010', taxTreatment: { code: 'NAT-IVA21', taxCode: 'IVA21' } }]);
});

t.test("ES: a product's taxes are its tax group's; a tax group not the organisation's is refused", async (t) => {
  const standard = (await ok(`{ taxGroups(where: { code: { eq: "STANDARD" } }) { nodes { id } } }`)).taxGroups.nodes[0].id;
  const CREATE = `mutation($input: ProductCreateGLDtoInput!) { createProduct(input: $input) { id } }`;
  await ok(CREATE, { input: { code: 'TAX-01', name: 'Con IVA', taxGroupId: standard } });
  const product = (await ok(`{ products(where: { code: { eq: "TAX-01" } }) { nodes { taxGroupId taxes { groupName name percentage equivalenceSurchargePercentage taxType } } } }`)).products.nodes[0];
  t.equal(product.taxGroupId, standard);
  t.same(product.taxes.map((x: any) => [x.name, Number(x.percentage), Number(x.equivalenceSurchargePercentage), x.taxType, x.groupName]), [
    ['IGIC 7 %', 7, 0, 'IGIC', 'Standard'], ['IVA 21 %', 21, 5.2, 'IVA', 'Standard'],
  ], 'both territories\' standard rates');
  await refused(t, 'an unknown tax group', CREATE, { input: { code: 'TAX-02', name: 'X', taxGroupId: randomUUID() } }, 'sales.businessErrors.taxGroupNotFound');
  const other = await organisationIn('ES');
  await refused(t, "another organisation's tax group", CREATE, { input: { code: 'TAX-03', name: 'X', taxGroupId: derivedId(other.id, 'tax-group', 'STANDARD') } }, 'sales.businessErrors.taxGroupNotFound');
});

t.test('FR, DE and GB rates; another organisation\'s ids are not readable', async (t) => {
  const expected: Record<string, number[]> = { FR: [20, 10, 5.5, 2.1, 0], DE: [19, 7, 0], GB: [20, 5, 0, 0] };
  for (const [country, percentages] of Object.entries(expected)) {
    const org = await organisationIn(country);
    const r = await api.gql(`{ taxes(order: [{ percentage: DESC }]) { nodes { id percentage taxType } } taxTreatments { totalCount } }`, undefined, org.headers);
    t.same(r.data.taxes.nodes.map((n: any) => Number(n.percentage)), percentages, `${country} rates`);
    t.ok(r.data.taxTreatments.totalCount > 0, `${country} treatments`);
    const foreignTax = r.data.taxes.nodes[0].id;
    const mine = await ok(`query($id: UUID!) { taxes(where: { id: { eq: $id } }) { totalCount } }`, { id: foreignTax });
    t.equal(mine.taxes.totalCount, 0, `${country}'s tax is not readable from the ES organisation`);
  }
  const de = (await ok(`{ taxes { nodes { taxType } } }`)).taxes.nodes;
  t.notOk(de.some((n: any) => n.taxType === 'UST'), 'no German rate among the ES organisation\'s');
});

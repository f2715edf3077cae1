/** Taxes and tax treatments as Sage clients read them (pm-089, 090, 129, 146, 147). */
import { assert, nodesOf, type SageOperation } from './operation.ts';

export const TAXES: SageOperation[] = [
  {
    name: 'taxes filtered by percentage (pm-146)',
    query: `query { taxes(where: { percentage: { eq: 21 } }) { edges { node { id name percentage } } } }`,
    expect(data, ctx) {
      const [tax] = nodesOf(data.taxes);
      assert.equal(Number(tax.percentage), 21);
      ctx.taxId = tax.id;
    },
  },
  {
    name: 'taxes filtered by taxType, first, with the fields of S1 15 (pm-089, 129)',
    query: `query taxes($taxType: TaxType) { taxes(where: { taxType: { eq: $taxType } }, first: 20) { edges { node { id code name percentage equivalenceSurchargePercentage taxType taxGroupId } } } }`,
    variables: () => ({ taxType: 'IVA' }),
    expect(data) { assert.ok(nodesOf(data.taxes).every((n) => n.taxType === 'IVA')); },
  },
  {
    name: 'taxTreatments filtered by taxCode, with their accounts (pm-090, 147)',
    query: `query taxTreatments($taxCode: String) { taxTreatments(where: { taxCode: { eq: $taxCode } }) { edges { node {
      id code description taxCode inactive admitsCashVAT hasSurcharge intraKey isIntracomunity isService regimeType registerType taxGroupId taxGroupName taxType transcendenceKey
      outputAccountingAccount { code accountLevel accountType description } inputAccountingAccount { code }
    } } } }`,
    variables: () => ({ taxCode: 'IVA21' }),
    expect(data) { assert.equal(nodesOf(data.taxTreatments)[0].outputAccountingAccount.code, '4770000'); },
  },
];

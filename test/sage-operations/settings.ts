/** Shared settings and reference data as Sage clients write them (pm-071..072, pm-109..125, hp-010). */
import { assert, nodesOf, onlyNode, deletion, type SageOperation } from './operation.ts';

export const SETTINGS: SageOperation[] = [
  {
    name: 'countries with $first: Int!, ordered by name, through a Country fragment with legislationCode (pm-072, hp-010)',
    query: `query countries($first: Int!) { countries(first: $first, order: [{ name: ASC }]) { totalCount edges { node { ...CountryFields } } } }
      fragment CountryFields on Country { id name isoCodeAlpha2 isoCodeAlpha3 isoNumber creationDate modificationDate viesCode legislationCode }`,
    variables: () => ({ first: 300 }),
    expect(data) {
      const countries = nodesOf(data.countries);
      assert.equal(countries.length, data.countries.totalCount);
      assert.equal(countries.find((c) => c.isoCodeAlpha2 === 'ES').legislationCode, 'ES');
      assert.equal(countries.find((c) => c.isoCodeAlpha2 === 'FR').legislationCode, 'FR');
    },
  },
  {
    name: 'documentTypes with legislationCode (pm-071)',
    query: `query documentTypes { documentTypes { edges { node { id code name legislationCode } } } }`,
    expect(data) {
      const types = nodesOf(data.documentTypes);
      assert.ok(types.length > 0 && types.every((d) => typeof d.legislationCode === 'string' && d.legislationCode.length > 0));
    },
  },
  {
    name: 'createBusinessArea (pm-111)',
    query: `mutation createBusinessArea($values: BusinessAreaCreateGLDtoInput!) { createBusinessArea(input: $values) { id } }`,
    variables: () => ({ values: { name: 'Hostelería' } }),
    expect(data, ctx) { ctx.businessAreaId = data.createBusinessArea.id; },
  },
  {
    name: 'businessAreas sent with an undeclared `id` variable, ignored (pm-110, §1.1)',
    query: `query businessAreas { businessAreas { edges { node { id name } } } }`,
    variables: (ctx) => ({ id: ctx.businessAreaId }),
    expect(data, ctx) { assert.deepEqual(nodesOf(data.businessAreas).find((b) => b.id === ctx.businessAreaId), { id: ctx.businessAreaId, name: 'Hostelería' }); },
  },
  ...deletion('BusinessArea', 'businessAreas', 'businessAreaId', 'pm-112'),
  {
    name: 'createJobArea (pm-115)',
    query: `mutation createJobArea($values: JobAreaCreateGLDtoInput!) { createJobArea(input: $values) { id } }`,
    variables: () => ({ values: { name: 'Compras' } }),
    expect(data, ctx) { ctx.jobAreaId = data.createJobArea.id; },
  },
  {
    name: 'jobAreas sent with an undeclared `id` variable, ignored (pm-114, §1.1)',
    query: `query jobAreas { jobAreas { edges { node { id name } } } }`,
    variables: (ctx) => ({ id: ctx.jobAreaId }),
    expect(data, ctx) { assert.deepEqual(nodesOf(data.jobAreas).find((b) => b.id === ctx.jobAreaId), { id: ctx.jobAreaId, name: 'Compras' }); },
  },
  {
    name: 'createPaymentMean with description only (pm-118)',
    query: `mutation createPaymentMean($values: PaymentMeanCreateGLDtoInput!) { createPaymentMean(input: $values) { id } }`,
    variables: () => ({ values: { description: 'Transferencia' } }),
    expect(data, ctx) { ctx.paymentMeanId = data.createPaymentMean.id; },
  },
  {
    name: 'paymentMeans read with {description} (pm-116, §5 PaymentMean)',
    query: `query paymentMeans { paymentMeans { edges { node { id creationDate modificationDate description type inactive } } } }`,
    expect(data, ctx) { assert.equal(nodesOf(data.paymentMeans).find((m) => m.id === ctx.paymentMeanId).description, 'Transferencia'); },
  },
  {
    name: 'createPaymentTerm: no code, lines with order 1 and 9999, FIXED_AMOUNT/PERCENTAGE/REMAINING_AMOUNT, DAY_OF_PAYMENT/END_OF_MONTH (pm-124)',
    query: `mutation createPaymentTerm($values: PaymentTermCreateGLDtoInput!) { createPaymentTerm(input: $values) { id } }`,
    variables: (ctx) => ({ values: { name: '30/60 días', lines: [
      { type: 'FIXED_AMOUNT', value: 100, order: 1, condition: 'DAY_OF_PAYMENT', day: 30, paymentMeanId: ctx.paymentMeanId },
      { type: 'PERCENTAGE', value: 50, order: 2, condition: 'END_OF_MONTH', day: 60 },
      { type: 'REMAINING_AMOUNT', value: 0, order: 9999, condition: 'DAY_OF_PAYMENT' },
    ] } }),
    expect(data, ctx) { ctx.paymentTermId = data.createPaymentTerm.id; },
  },
  {
    name: 'paymentTerms read with their lines (pm-123)',
    query: `query paymentTerms($id: UUID!) { paymentTerms(where: { id: { eq: $id } }) { edges { node { id name lines { type paymentMeanId id day condition order payDays } } } } }`,
    variables: (ctx) => ({ id: ctx.paymentTermId }),
    expect(data, ctx) {
      const term = onlyNode(data.paymentTerms);
      assert.equal(term.name, '30/60 días');
      assert.deepEqual(term.lines.map((l: any) => [l.type, l.condition, l.order, l.paymentMeanId]), [
        ['FIXED_AMOUNT', 'DAY_OF_PAYMENT', 1, ctx.paymentMeanId], ['PERCENTAGE', 'END_OF_MONTH', 2, null], ['REMAINING_AMOUNT', 'DAY_OF_PAYMENT', 9999, null],
      ]);
    },
  },
  // The term first: it names the mean.
  ...deletion('PaymentTerm', 'paymentTerms', 'paymentTermId', 'pm-125'),
  ...deletion('PaymentMean', 'paymentMeans', 'paymentMeanId', 'pm-119'),
  {
    name: 'createPaymentMethod: a bank account on the FINANCIAL journal (ours; PM reads paymentMethods only, pm-120)',
    query: `mutation createPaymentMethod($input: PaymentMethodCreateGLDtoInput!) { createPaymentMethod(input: $input) { id } }`,
    variables: (ctx) => ({ input: { referenceName: 'Santander cuenta', type: 'BANK_ACCOUNT', journalTypeId: ctx.journalTypeId, subAccountId: ctx.bankAccountId } }),
    expect(data, ctx) { ctx.paymentMethodId = data.createPaymentMethod.id; },
  },
  {
    name: 'updatePaymentMethod: referenceName (ours)',
    query: `mutation updatePaymentMethod($input: PaymentMethodUpdateGLDtoInput!) { updatePaymentMethod(input: $input) { id } }`,
    variables: (ctx) => ({ input: { id: ctx.paymentMethodId, referenceName: 'Santander principal' } }),
    expect(data, ctx) { assert.equal(data.updatePaymentMethod.id, ctx.paymentMethodId); },
  },
  {
    name: 'paymentMethods filtered by type, with journalType{code} and subAccount{code} (pm-120, 121, 156)',
    query: `query paymentMethods { paymentMethods(where: { type: { eq: BANK_ACCOUNT } }, first: 20) { edges { node { id creationDate referenceName type journalType { code } subAccount { code } } } } }`,
    expect(data, ctx) {
      const method = nodesOf(data.paymentMethods).find((m) => m.id === ctx.paymentMethodId);
      assert.deepEqual({ ...method, creationDate: undefined }, { id: ctx.paymentMethodId, creationDate: undefined, referenceName: 'Santander principal', type: 'BANK_ACCOUNT', journalType: { code: 'BK2' }, subAccount: { code: '5720000' } });
    },
  },
  ...deletion('PaymentMethod', 'paymentMethods', 'paymentMethodId', 'ours, written as the other deletes'),
];

/**
 * Products as Sage clients write them (pm-126..128, 130..132; s1-017); sales tariffs and discount groups read as
 * pm-140..143 read them (Sage names no mutation for them: ours follow the products'), and productPriceById (s1-010, 017).
 */
import { assert, onlyNode, deletion, type SageOperation } from './operation.ts';

const PRODUCT_BY_ID = `query productById($id: UUID!) { products(where: { id: { eq: $id } }) { edges { node {
  id code name category salesUnitPrice firstSalesDiscount taxGroupId lineDescription comments creationDate modificationDate obsolete salesAccountingAccountId
} } } }`;

export const CATALOG: SageOperation[] = [
  {
    name: 'createProduct with code, name, comments, lineDescription, salesUnitPrice, taxGroupId null (pm-126)',
    query: `mutation createProduct($values: ProductCreateGLDtoInput!) { createProduct(input: $values) { id } }`,
    variables: () => ({ values: { code: 'TORN-M8', name: 'Tornillo M8', comments: 'Caja de 100', lineDescription: 'Tornillo hexagonal M8', salesUnitPrice: 12.5, taxGroupId: null } }),
    expect(data, ctx) { ctx.productId = data.createProduct.id; },
  },
  {
    name: 'products filtered by code and obsolete, ordered, with the fields pm-131/132 select',
    query: `query products { products(where: { code: { eq: "TORN-M8" }, obsolete: { eq: false } }, order: [{ code: ASC }], first: 10) { edges { node {
      id code name category salesUnitPrice firstSalesDiscount taxGroupId lineDescription comments creationDate modificationDate obsolete salesAccountingAccountId salesAccountingAccount { code }
    } } } }`,
    expect(data, ctx) {
      const product = onlyNode(data.products);
      assert.deepEqual([product.id, product.name, product.lineDescription, product.comments, Number(product.salesUnitPrice), product.obsolete], [ctx.productId, 'Tornillo M8', 'Tornillo hexagonal M8', 'Caja de 100', 12.5, false]);
    },
  },
  {
    name: 'updateProduct: id, name, comments, salesUnitPrice (pm-127)',
    query: `mutation updateProduct($values: ProductUpdateGLDtoInput!) { updateProduct(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.productId, name: 'Tornillo M8 zincado', comments: 'Caja de 200', salesUnitPrice: 21 } }),
    expect(data, ctx) { assert.equal(data.updateProduct.id, ctx.productId); },
  },
  {
    name: 'the product read by id: the patch applied, the rest kept',
    query: PRODUCT_BY_ID,
    variables: (ctx) => ({ id: ctx.productId }),
    expect(data) {
      const product = onlyNode(data.products);
      assert.deepEqual([product.code, product.name, product.comments, Number(product.salesUnitPrice), product.lineDescription], ['TORN-M8', 'Tornillo M8 zincado', 'Caja de 200', 21, 'Tornillo hexagonal M8']);
    },
  },
  ...priceListOperations(),
  ...deletion('Product', 'products', 'productId', 'pm-128'),
];

function priceListOperations(): SageOperation[] {
  return [
    {
      name: 'createSalesTariff: a PRICE line with a stretch',
      query: `mutation createSalesTariff($values: SalesTariffCreateGLDtoInput!) { createSalesTariff(input: $values) { id } }`,
      variables: (ctx) => ({ values: { code: 'MAYOR', name: 'Mayoristas', type: 'PRICE', lines: [{ productId: ctx.productId, indicatorValue: 19, stretchs: [{ fromUnits: 100, toUnits: 1000, indicatorValue: 18 }] }] } }),
      expect(data, ctx) { ctx.salesTariffId = data.createSalesTariff.id; },
    },
    {
      name: 'createSalesDiscount: a line of the product',
      query: `mutation createSalesDiscount($values: SalesDiscountCreateGLDtoInput!) { createSalesDiscount(input: $values) { id } }`,
      variables: (ctx) => ({ values: { code: 'DTO', name: 'Tornillería', lines: [{ productId: ctx.productId, firstDiscount: 5 }] } }),
      expect(data, ctx) { ctx.salesDiscountId = data.createSalesDiscount.id; },
    },
    {
      name: 'salesTariffs with their lines and stretchs (pm-140, 141)',
      query: `query salesTariffs { salesTariffs(where: { enabled: { eq: true } }, order: [{ code: ASC }]) { edges { node {
        id code name type startDate endDate enabled creationDate modificationDate lines { id creationDate modificationDate enabled startDate endDate indicatorValue productId
          stretchs { id creationDate modificationDate fromUnits toUnits indicatorValue } }
      } } } }`,
      expect(data, ctx) {
        const tariff = onlyNode(data.salesTariffs);
        assert.deepEqual([tariff.id, tariff.type, tariff.lines[0].productId, Number(tariff.lines[0].stretchs[0].indicatorValue)], [ctx.salesTariffId, 'PRICE', ctx.productId, 18]);
      },
    },
    {
      name: 'salesDiscounts with their lines (pm-142, 143)',
      query: `query salesDiscounts { salesDiscounts(order: [{ code: ASC }]) { edges { node {
        id code name startDate endDate enabled creationDate modificationDate lines { id creationDate modificationDate productId startDate endDate firstDiscount
          stretchs { id creationDate modificationDate fromUnits toUnits firstDiscount } }
      } } } }`,
      expect(data, ctx) { assert.deepEqual([onlyNode(data.salesDiscounts).id, Number(onlyNode(data.salesDiscounts).lines[0].firstDiscount)], [ctx.salesDiscountId, 5]); },
    },
    {
      name: 'productPriceById with the tariff and discount group named (s1-010, 017)',
      query: `query productPriceById($id: ID!, $productPrice: ProductPriceGLDtoInput!) { productPriceById(id: $id, productPrice: $productPrice) {
        price { code name source value } firstDiscount { code name source value } taxGroupId taxId equivalenceSurchargePercentage taxPercentage taxTreatmentId } }`,
      variables: (ctx) => ({ id: ctx.productId, productPrice: { documentDate: `${ctx.year}-03-02T00:00:00Z`, quantity: 150, salesTariffId: ctx.salesTariffId, salesDiscountGroupId: ctx.salesDiscountId } }),
      expect(data) {
        const p = data.productPriceById;
        assert.deepEqual([p.price.source, Number(p.price.value), p.firstDiscount.source, Number(p.firstDiscount.value), Number(p.taxPercentage)], ['TARIFF', 18, 'DISCOUNT_GROUP', 5, 21]);
      },
    },
    {
      name: 'updateSalesTariff: a line modified by id',
      query: `mutation updateSalesTariff($values: SalesTariffUpdateGLDtoInput!) { updateSalesTariff(input: $values) { id } }`,
      variables: (ctx) => ({ values: { id: ctx.salesTariffId, name: 'Mayoristas 2026', enabled: false } }),
      expect(data, ctx) { assert.equal(data.updateSalesTariff.id, ctx.salesTariffId); },
    },
    {
      name: 'updateSalesDiscount: the name',
      query: `mutation updateSalesDiscount($values: SalesDiscountUpdateGLDtoInput!) { updateSalesDiscount(input: $values) { id } }`,
      variables: (ctx) => ({ values: { id: ctx.salesDiscountId, name: 'Tornillería 2026' } }),
      expect(data, ctx) { assert.equal(data.updateSalesDiscount.id, ctx.salesDiscountId); },
    },
    ...deletion('SalesTariff', 'salesTariffs', 'salesTariffId', 'ours'),
    ...deletion('SalesDiscount', 'salesDiscounts', 'salesDiscountId', 'ours'),
  ];
}

/** Products as Sage clients write them (pm-126..128, 130..132; s1-017). */
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
  ...deletion('Product', 'products', 'productId', 'pm-128'),
];

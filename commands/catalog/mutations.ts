/** The product catalogue's mutations: products, sales tariffs and sales discount groups. */
import { mutation, type MutationSpec } from '../mutation.ts';
import { createProduct, deleteProduct, updateProduct } from './handlers.ts';
import { ProductCreateInput, ProductDeleteInput, ProductUpdateInput } from './inputs.ts';
import { SALES_DISCOUNT_HANDLERS, SALES_TARIFF_HANDLERS } from './price-list-handlers.ts';
import { SalesDiscountInputs, SalesTariffInputs } from './price-list-inputs.ts';

const PRODUCT = 'active/product';

/** Sage names no mutation for tariffs and discount groups: ours follow the products' style, under the same resource. */
const priceListMutations = (entity: string, access: string, inputs: typeof SalesTariffInputs | typeof SalesDiscountInputs, run: typeof SALES_TARIFF_HANDLERS) => [
  mutation('create', entity, inputs.create, 'SALES', [`add-${access}`, PRODUCT, 'add'], run.create),
  mutation('update', entity, inputs.update, 'SALES', [`update-${access}`, PRODUCT, 'update'], run.update),
  mutation('delete', entity, inputs.delete, 'SALES', [`delete-${access}`, PRODUCT, 'delete'], run.delete),
];

export const CATALOG_MUTATIONS: MutationSpec[] = [
  mutation('create', 'Product', ProductCreateInput, 'SALES', ['add-product', PRODUCT, 'add'], createProduct),
  mutation('update', 'Product', ProductUpdateInput, 'SALES', ['update-product', PRODUCT, 'update'], updateProduct),
  mutation('delete', 'Product', ProductDeleteInput, 'SALES', ['delete-product', PRODUCT, 'delete'], deleteProduct),
  ...priceListMutations('SalesTariff', 'sales-tariff', SalesTariffInputs, SALES_TARIFF_HANDLERS),
  ...priceListMutations('SalesDiscount', 'sales-discount', SalesDiscountInputs, SALES_DISCOUNT_HANDLERS),
];

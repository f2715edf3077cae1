/** The product catalogue's mutations. */
import { mutation, type MutationSpec } from '../mutation.ts';
import { createProduct, deleteProduct, updateProduct } from './handlers.ts';
import { ProductCreateInput, ProductDeleteInput, ProductUpdateInput } from './inputs.ts';

const PRODUCT = 'active/product';

export const CATALOG_MUTATIONS: MutationSpec[] = [
  mutation('create', 'Product', ProductCreateInput, 'SALES', ['add-product', PRODUCT, 'add'], createProduct),
  mutation('update', 'Product', ProductUpdateInput, 'SALES', ['update-product', PRODUCT, 'update'], updateProduct),
  mutation('delete', 'Product', ProductDeleteInput, 'SALES', ['delete-product', PRODUCT, 'delete'], deleteProduct),
];

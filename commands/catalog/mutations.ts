/** The product catalogue's mutations. */
import { mutation, type MutationSpec } from '../mutation.ts';
import type { CommandServices } from '../services.ts';
import { IdOnly, ProductCreateInput } from '../parties/inputs.ts';
import { SettingsCommands } from '../settings/handlers.ts';

const settings = (s: CommandServices) => new SettingsCommands(s);
const id = (entity: string, verb: string) => IdOnly(`${entity}${verb}GLDtoInput`);
const PRODUCT = 'active/product';

export const CATALOG_MUTATIONS: MutationSpec[] = [
  mutation('create', 'Product', ProductCreateInput, 'SALES', ['add-product', PRODUCT, 'add'], (s, c, i) => settings(s).createProduct(c, i)),
  mutation('delete', 'Product', id('Product', 'Delete'), 'SALES', ['delete-product', PRODUCT, 'delete'], (s, c, i) => settings(s).deleteProduct(c, i)),
];

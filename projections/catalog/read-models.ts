/** The product catalogue as a read model (fields the spec does not show are ours, as a sales ERP has them). */
import { ProductType } from '../../domain/catalog/enums.ts';
import { f, type Resource } from '../engine/resource.ts';
import { AccountingAccount } from '../accounting/read-models.ts';

export const Product: Resource = {
  typeName: 'Product',
  table: 'products',
  scope: 'organisation',
  query: { field: 'products', connection: 'ProductsConnection' },
  rest: { path: '/products', displayedAs: (r) => `${r.code} ${r.name}` },
  indexes: [['organisation_id', 'code']],
  defaultOrder: ['code'],
  fields: [
    f.bool('allowNegativeStock'),
    f.string('code'),
    f.dateTime('creationDate'),
    f.string('description'),
    f.bool('disabled'),
    f.uuid('id'),
    f.dateTime('modificationDate'),
    f.string('name'),
    f.ref('purchaseAccount', 'AccountingAccount', () => AccountingAccount, 'purchaseAccountId'),
    f.uuid('purchaseAccountId'),
    f.ref('salesAccount', 'AccountingAccount', () => AccountingAccount, 'salesAccountId'),
    f.uuid('salesAccountId'),
    f.bool('stockManaged'),
    f.absent('taxTreatment', 'TaxTreatment'),
    f.uuid('taxTreatmentId'),
    f.enum('type', 'ProductType', ProductType),
    f.decimal('unitPrice'),
  ],
};

export const CATALOG_RESOURCES: Resource[] = [Product];

/**
 * The product catalogue as a read model, in Sage's names (sage-names.md §5); the tax treatment, purchase
 * account and stock keeping are ours, as a sales ERP has them. Sage's `taxes` and `salesVatPercentage` come
 * from the tax groups, which the sales issue serves.
 */
import { ProductCategory } from '../../domain/catalog/enums.ts';
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
    f.enum('category', 'ProductCategory', ProductCategory),
    f.string('code'),
    f.string('comments'),
    f.dateTime('creationDate'),
    f.decimal('firstSalesDiscount'),
    f.uuid('id'),
    f.string('lineDescription'),
    f.dateTime('modificationDate'),
    f.string('name'),
    f.bool('obsolete'),
    f.ref('purchaseAccount', 'AccountingAccount', () => AccountingAccount, 'purchaseAccountId'),
    f.uuid('purchaseAccountId'),
    f.ref('salesAccountingAccount', 'AccountingAccount', () => AccountingAccount, 'salesAccountingAccountId'),
    f.uuid('salesAccountingAccountId'),
    f.bool('salesDeliveryNoteBlockingEnabled'),
    f.bool('salesInvoiceBlockingEnabled'),
    f.bool('salesOrderBlockingEnabled'),
    f.decimal('salesUnitPrice'),
    f.bool('stockManaged'),
    f.uuid('taxGroupId'),
    f.absent('taxTreatment', 'TaxTreatment'),
    f.uuid('taxTreatmentId'),
  ],
};

export const CATALOG_RESOURCES: Resource[] = [Product];

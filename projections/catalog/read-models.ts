/**
 * The product catalogue as a read model, in Sage's names (sage-names.md §5); the tax treatment, purchase
 * account and stock keeping are ours, as a sales ERP has them. Sage's `taxes` are its tax group's
 * (projections/taxes); `salesVatPercentage` is the rate a domestic sale charges (sales-vat.ts).
 */
import { ProductCategory } from '../../domain/catalog/enums.ts';
import { f, type Resource } from '../engine/resource.ts';
import { AccountingAccount } from '../accounting/read-models.ts';
import { Tax, TaxTreatment } from '../taxes/read-models.ts';
import { domesticSalesVatPercentage } from './sales-vat.ts';

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
    f.computedFor('salesVatPercentage', 'Decimal', domesticSalesVatPercentage),
    f.bool('stockManaged'),
    f.uuid('taxGroupId'),
    // Sage's taxes{groupName name percentage ...}: the taxes of the product's tax group.
    f.children('taxes', 'Tax', () => Tax, 'taxGroupId', 'code', 'taxGroupId'),
    f.ref('taxTreatment', 'TaxTreatment', () => TaxTreatment, 'taxTreatmentId'),
    f.uuid('taxTreatmentId'),
  ],
};

export const PRODUCT_RESOURCES: Resource[] = [Product];

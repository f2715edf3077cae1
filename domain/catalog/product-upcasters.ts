/** The Catalog's event shapes over time (see upcasters.ts). */
import type { EventUpcaster } from '../upcasters.ts';
import type { ProductCategory } from './enums.ts';

/** Our former product types as Sage's categories. */
const CATEGORY_OF_TYPE: Record<string, ProductCategory> = { GOODS: 'PRODUCT', SERVICE: 'SERVICE' };

/**
 * ProductCreated 1 -> 2: the product in Sage's names (issue 17). Until then a product had a `type` (GOODS,
 * SERVICE), a `unitPrice`, a `description`, a `salesAccountId` and a `disabled` flag; now a `category`, a
 * `salesUnitPrice`, a `lineDescription` (the old description is what a sales line showed), a
 * `salesAccountingAccountId` and `obsolete`, and the fields Sage adds, at what a product created without
 * them gets: no discount, comments or tax group, no blocked sales documents.
 */
const productInSageNames: EventUpcaster = {
  type: 'ProductCreated',
  from: 1,
  upcast(data) {
    if (!('type' in data)) return data;
    const { type, unitPrice, description, salesAccountId, disabled, ...kept } = data;
    return {
      ...kept,
      category: CATEGORY_OF_TYPE[type as string] ?? 'NOT_SPECIFIED',
      salesUnitPrice: unitPrice,
      firstSalesDiscount: '0.00',
      lineDescription: description ?? null,
      comments: null,
      taxGroupId: null,
      salesAccountingAccountId: salesAccountId ?? null,
      obsolete: disabled ?? false,
      salesDeliveryNoteBlockingEnabled: false,
      salesInvoiceBlockingEnabled: false,
      salesOrderBlockingEnabled: false,
    };
  },
};

export const CATALOG_UPCASTERS: readonly EventUpcaster[] = [productInSageNames];

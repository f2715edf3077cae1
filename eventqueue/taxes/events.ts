/** Which taxes events reach trigger queues: an organisation's own sales tax rates, named by their code. */
import type { TaxesEvent } from '../../domain/taxes/sales-tax-rates.ts';
import type { EventCatalog } from '../event-catalog.ts';

export const TAX_EVENTS: EventCatalog<TaxesEvent['type']> = {
  SalesTaxRateCreated: (d) => ({ object: 'tax', event: 'after.create', key: d.taxId, id: d.code }),
  SalesTaxRateUpdated: (d) => ({ object: 'tax', event: 'after.update', key: d.taxId, id: d.code }),
  SalesTaxRateDeleted: (d) => ({ object: 'tax', event: 'after.delete', key: d.taxId, id: d.code }),
};

/**
 * How stored events of an older shape become the current one. Events are never rewritten: the event
 * store upcasts each one as it is read (eventstore/upcasters.ts), so deciders, projections and the queue
 * see only current shapes. Each area lists its own upcasters; EVENT_UPCASTERS gathers them.
 */
import { LEDGER_UPCASTERS } from './accounting/ledger-upcasters.ts';
import { ORGANISATION_UPCASTERS } from './accounting/organisation-upcasters.ts';
import { CATALOG_UPCASTERS } from './catalog/product-upcasters.ts';
import { PARTY_UPCASTERS } from './parties/party-upcasters.ts';
import { PARTY_PAYMENT_TERM_UPCASTERS } from './parties/payment-term-upcasters.ts';
import { SALES_UPCASTERS } from './sales/sales-upcasters.ts';
import { SETTINGS_UPCASTERS } from './settings/settings-upcasters.ts';

/**
 * One step of an event type's shape: data of schema version `from` to data of version `from + 1`. Pure,
 * and harmless on data already in the newer shape (stores written before versions were counted per
 * type hold current shapes marked 1 too).
 */
export interface EventUpcaster {
  type: string;
  from: number;
  upcast: (data: Record<string, unknown>) => Record<string, unknown>;
}

export const EVENT_UPCASTERS: readonly EventUpcaster[] = [
  ...LEDGER_UPCASTERS, ...ORGANISATION_UPCASTERS, ...CATALOG_UPCASTERS, ...PARTY_UPCASTERS, ...SETTINGS_UPCASTERS, ...PARTY_PAYMENT_TERM_UPCASTERS, ...SALES_UPCASTERS,
];

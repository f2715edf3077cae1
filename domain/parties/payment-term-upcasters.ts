/**
 * A customer's and a supplier's payment term lines with Sage's values (issue 17): their Created and
 * Updated events carry the lines, mapped as a payment term's are (domain/settings/settings-upcasters.ts).
 */
import type { EventUpcaster } from '../upcasters.ts';
import { sageTermLines } from '../settings/settings-upcasters.ts';

const LINE_CARRIERS = ['CustomerCreated', 'CustomerUpdated', 'SupplierCreated', 'SupplierUpdated'] as const;

/** Version 2 -> 3: the step after the parties' own renaming (party-upcasters.ts, 1 -> 2). */
export const PARTY_PAYMENT_TERM_UPCASTERS: readonly EventUpcaster[] = LINE_CARRIERS.map((type) => ({
  type,
  from: 2,
  upcast: (data) => ('paymentTermLines' in data ? { ...data, paymentTermLines: sageTermLines(data.paymentTermLines) } : data),
}));

/**
 * What the sales documents name, for the deletion guards of the parties and the catalogue: a customer or a
 * product a live document (any kind, credit notes included) names stays, as the accounts an entry names do.
 */
import type { SalesState } from './state.ts';

export const documentsNameCustomer = (state: SalesState, customerId: string): boolean =>
  [...state.documents.values()].some((kept) => kept.document.header.customerId === customerId);

export const documentsNameProduct = (state: SalesState, productId: string): boolean =>
  [...state.documents.values()].some((kept) => kept.document.lines.some((l) => l.productId === productId));

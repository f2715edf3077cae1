/**
 * The command id of a mutation sent with an Idempotency-Key: derived from the organisation, the caller
 * (client and user) and the key, so callers never share outcomes. Up to 76e5ffb it was derived from the
 * organisation, the mutation and the key. A retry is likeliest across a restart, an upgrade included: one
 * whose first request the former version recorded, for the same client and user, keeps the former id, so
 * that it is answered with that outcome rather than done a second time.
 */
import { derivedId } from '../../domain/ids.ts';
import type { EventStore } from '../../eventstore/port.ts';
import type { Caller } from '../auth/identity.ts';

export async function commandIdOf(store: EventStore, caller: Caller, mutation: string, key: string): Promise<string> {
  const former = derivedId(caller.organisationId, `command:${mutation}`, key);
  const first = store.findEvent ? await store.findEvent(derivedId(former, 'event', '0')) : undefined;
  const sameCaller = first?.metadata.organisationId === caller.organisationId && first.metadata.clientId === caller.clientId && first.metadata.userId === caller.userId;
  return sameCaller ? former : derivedId(caller.organisationId, 'command', JSON.stringify([caller.clientId, caller.userId, key]));
}

/** An aggregate's history for auditors: each event with who (user, client) and when. */
import type { EventStore } from '../eventstore/port.ts';

export const HISTORY_LIMITS = Object.freeze({ maxEvents: 100_000 });

export async function aggregateHistory(store: EventStore, organisationId: string, streamId: string) {
  const events = [];
  for (let from = 0n; events.length < HISTORY_LIMITS.maxEvents; ) {
    const page = await store.readStream(streamId, { fromRevision: from, maxCount: 1000 });
    events.push(...page);
    if (page.length < 1000) break;
    from += 1000n;
  }
  // Another organisation's stream reads as empty, never as its contents.
  return events
    .filter((e) => e.metadata.organisationId === organisationId)
    .map((e) => ({
      revision: e.revision.toString(),
      position: `${e.position.commit}/${e.position.prepare}`,
      recordedAt: e.recordedAt.toISOString(),
      type: e.type,
      userId: e.metadata.userId ?? null,
      clientId: e.metadata.clientId ?? null,
      correlationId: e.metadata.correlationId ?? null,
      data: e.data,
    }));
}

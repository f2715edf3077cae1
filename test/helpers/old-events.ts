/**
 * Events as an older version stored them, written straight into es_events (as test/event-upcasting does): lines
 * posted before the third party's id and kind were recorded, and a party deleted while a line named it (the
 * guard did not exist then). Each is projected before it returns.
 */
import { randomUUID } from 'node:crypto';
import { LedgerAggregate } from '../../commands/accounting/aggregates.ts';
import { AggregateStore } from '../../commands/aggregate-store.ts';
import { PartiesAggregate } from '../../commands/parties/aggregates.ts';
import { exerciseForDate } from '../../domain/accounting/organisation.ts';
import type { GlobalPosition } from '../../eventstore/port.ts';
import type { runningService } from './service.ts';

type Api = Awaited<ReturnType<typeof runningService>>;
type Line = Record<string, unknown>;

/** Appends an event as stored (no upcasting, no decision) to a stream, and waits for the read models. */
export async function appendStored(api: Api, stream: string, type: string, data: object, metadata: object): Promise<void> {
  const { db, daemon } = api.service;
  const { rows: [inserted] } = await db.pool.query(
    `WITH moved AS (UPDATE es_streams SET revision = revision + 1 WHERE stream_id = $1 RETURNING revision)
     INSERT INTO es_events (stream_id, stream_revision, event_id, event_type, data, metadata)
     SELECT $1, revision, $2, $3, $4, $5 FROM moved
     RETURNING transaction_id::text AS commit, global_position::text AS prepare`,
    [stream, randomUUID(), type, JSON.stringify(data), JSON.stringify({ ...metadata, causationId: randomUUID() })],
  );
  const position: GlobalPosition = { commit: BigInt(inserted.commit), prepare: BigInt(inserted.prepare) };
  if (!(await daemon.waitFor(position))) throw new Error(`${type} not projected`);
}

/**
 * An entry posted by an older version: a copy of `template` (an entry posted now, by ids) with new ids, whose lines
 * lose the third party's id and kind and are then shaped by `old` (given each line and the id it had recorded).
 */
export async function postOld(api: Api, templateId: string, date: string, old: (line: Line, thirdPartyId: unknown) => Line): Promise<string> {
  const { commands, store } = api.service;
  const exercise = exerciseForDate(await commands.organisation(api.organisationId), date)!;
  const stream = AggregateStore.streamId(LedgerAggregate.category, exercise.id);
  const posted = (await store.readStream(stream)).find((e) => e.data.entryId === templateId)!;
  const ledger = await new AggregateStore(store).load(LedgerAggregate, exercise.id);
  const entryId = randomUUID();
  const lines = (posted.data.lines as Line[]).map(({ thirdPartyId, thirdPartyOrigin: _, ...l }) => old({ ...l, lineId: randomUUID() }, thirdPartyId));
  await appendStored(api, stream, 'AccountingEntryPosted', { ...posted.data, entryId, number: ledger.state.entryOrder.length + 1, lines }, posted.metadata);
  return entryId;
}

/** A customer's deletion as stored when no guard kept a party named by a line from being deleted. */
export async function deleteCustomerUnguarded(api: Api, customer: { id: string; code: string }): Promise<void> {
  const stream = AggregateStore.streamId(PartiesAggregate.category, api.organisationId);
  const created = (await api.service.store.readStream(stream)).find((e) => e.data.partyId === customer.id)!;
  await appendStored(api, stream, 'CustomerDeleted', { partyId: customer.id, kind: 'customer', code: customer.code, at: new Date().toISOString() }, created.metadata);
}

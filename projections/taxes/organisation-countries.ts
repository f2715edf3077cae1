/**
 * The country of each organisation whose own sales tax rates a batch of events carries, read inside the batch's
 * transaction (projection.prepare) from its OrganisationCreated event: a rate's treatment posts to the
 * organisation's country's sales tax account, whatever its jurisdiction says. Kept per event object in a WeakMap,
 * as PersonalData does: the live daemon and a rebuild may run the projection at once, and nothing outlives the batch.
 */
import type pg from 'pg';
import type { RecordedEvent } from '../../eventstore/port.ts';

export class OrganisationCountries {
  private readonly countries = new WeakMap<RecordedEvent, string>();

  async prepare(events: RecordedEvent[], client: pg.PoolClient, organisationOf: (e: RecordedEvent) => string): Promise<void> {
    if (events.length === 0) return;
    const streams = [...new Set(events.map((e) => `Organisation-${organisationOf(e)}`))];
    // The event type and stream are columns: nothing is queried inside the stored events.
    const found = await client.query<{ stream_id: string; data: { country: string } }>(
      `SELECT stream_id, data FROM es_events WHERE stream_id = ANY($1::text[]) AND event_type = 'OrganisationCreated'`, [streams]);
    const byStream = new Map(found.rows.map((r) => [r.stream_id, r.data.country]));
    for (const e of events) {
      const country = byStream.get(`Organisation-${organisationOf(e)}`);
      if (country) this.countries.set(e, country);
    }
  }

  /** The organisation's country; throws when prepare did not find it (an event of an organisation never created). */
  of(event: RecordedEvent): string {
    const country = this.countries.get(event);
    if (!country) throw new Error(`taxes projection: no OrganisationCreated for the organisation of event ${event.id}`);
    return country;
  }
}

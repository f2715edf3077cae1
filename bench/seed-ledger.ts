/**
 * Seeding a large ledger for the benchmarks (rebuild, lists), around the command layer for speed but
 * writing what it would: an organisation and an exercise through the commands (so the chart, journal
 * types, periods and session exist), then AccountingEntryPosted events shaped like domain/ledger.ts
 * makes them (two lines, sequential numbers, dates across the year with the matching period), appended
 * straight through the event store to the exercise's `Ledger-<exerciseId>` stream, 1,000 per append
 * with the expected revision.
 */
import { randomUUID } from 'node:crypto';
import type { Core } from '../service/core.ts';
import type { EventStore, NewEvent } from '../eventstore/port.ts';
import { LIMITS as STORE_LIMITS } from '../eventstore/port.ts';
import { eventSchemaVersion } from '../eventstore/upcasters.ts';

export const EVENTS_PER_APPEND = STORE_LIMITS.maxEventsPerAppend; // 1,000

export interface LedgerFacts {
  organisationId: string;
  exerciseId: string;
  journalTypeId: string;
  sessionId: string;
  currencyCode: string;
  debitAccountId: string;
  creditAccountId: string;
  periods: { periodId: string; month: number; startDate: string }[];
}

export function postedEvent(f: LedgerFacts, number: number, at: string): NewEvent {
  const period = f.periods[(number - 1) % f.periods.length];
  const date = `${period.startDate.slice(0, 8)}${String(1 + ((number - 1) % 28)).padStart(2, '0')}`;
  const amount = `${1 + (number % 9973)}.${String(number % 100).padStart(2, '0')}`;
  const commandId = randomUUID();
  const documentNumber = `F-${number}`;
  return {
    id: randomUUID(),
    type: 'AccountingEntryPosted',
    data: {
      exerciseId: f.exerciseId,
      entryId: randomUUID(),
      number,
      date,
      documentDate: date,
      documentNumber,
      description: `Factura ${documentNumber}`,
      journalTypeId: f.journalTypeId,
      periodId: period.periodId,
      sessionId: f.sessionId,
      currencyCode: f.currencyCode,
      entryType: 'GENERAL',
      sourceType: 'PUBLIC_API',
      lines: [
        { lineId: randomUUID(), order: 1, subAccountId: f.debitAccountId, debitAmount: amount, creditAmount: '0.00', description: null, thirdCode: null },
        { lineId: randomUUID(), order: 2, subAccountId: f.creditAccountId, debitAmount: '0.00', creditAmount: amount, description: null, thirdCode: null },
      ],
      at,
    },
    // What AggregateStore.execute writes for a command without user, client or correlation id.
    metadata: { organisationId: f.organisationId, correlationId: commandId, causationId: commandId, schemaVersion: eventSchemaVersion('AccountingEntryPosted') },
  };
}

export interface SeededOrganisation {
  facts: LedgerFacts;
  /** Ids of the chart's posting accounts (SUB_ACCOUNT level), in code order. */
  postingAccountIds: string[];
  streamId: string;
}

/** A Spanish organisation with an exercise for the current year, through the commands. */
export async function seedOrganisation(core: Pick<Core, 'commands' | 'mutate'>, name: string): Promise<SeededOrganisation> {
  const org = await core.commands.createOrganisation({}, { name, country: 'ES' });
  return seedExercise(core, org.id, new Date().getUTCFullYear());
}

/** An exercise of the organisation for `year` (January to December), and the facts its ledger's events need. */
export async function seedExercise(core: Pick<Core, 'commands' | 'mutate'>, organisationId: string, year: number): Promise<SeededOrganisation> {
  const exercise = await core.mutate.createAccountingExercise({ organisationId }, { startDate: `${year}-01-01`, endDate: `${year}-12-31`, description: `Ejercicio ${year}` });
  const state = await core.commands.organisation(organisationId);
  const ex = state.exercises.get(exercise.id)!;
  const need = <T>(v: T | undefined | null, what: string): T => {
    if (v === undefined || v === null) throw new Error(`the seeded organisation has no ${what}`);
    return v;
  };
  const facts: LedgerFacts = {
    organisationId,
    exerciseId: exercise.id,
    journalTypeId: need(state.journalTypeIdByCode.get('GEN'), 'journal type GEN'),
    sessionId: need(state.defaultSessionId, 'default session'),
    currencyCode: state.baseCurrency,
    debitAccountId: need(state.accountIdByCode.get('5720000'), 'account 5720000'),
    creditAccountId: need(state.accountIdByCode.get('1000000'), 'account 1000000'),
    periods: ex.periods.map((p) => ({ periodId: p.periodId, month: Number(p.month), startDate: p.startDate })),
  };
  const postingAccountIds = [...state.accounts.values()]
    .filter((a) => a.accountLevel === 'SUB_ACCOUNT' && !a.deactivated)
    .sort((a, b) => a.code.localeCompare(b.code))
    .map((a) => a.id);
  return { facts, postingAccountIds, streamId: `Ledger-${exercise.id}` };
}

/**
 * Appends the events `build(from + 1)` .. `build(from + count)` to `streamId`, which must hold exactly
 * `from` events, 1,000 per append; the next batch is built while the previous append is on its way.
 * Returns each append's time in ms.
 */
export async function appendPostedEvents(
  store: EventStore,
  streamId: string,
  build: (number: number) => NewEvent,
  range: { from?: number; count: number },
  onProgress: (seeded: number) => void = () => {},
): Promise<number[]> {
  const from = range.from ?? 0;
  const end = from + range.count;
  const appendTimes: number[] = [];
  const batchFrom = (start: number) => Array.from({ length: Math.min(EVENTS_PER_APPEND, end - start) }, (_, i) => build(start + i + 1));
  let seeded = from;
  let batch = batchFrom(seeded);
  while (seeded < end) {
    const n = batch.length;
    const t0 = performance.now();
    // Expected revisions chain, so appends go one at a time; the next batch is built while this one is written.
    const appended = store.append(streamId, batch, seeded === 0 ? 'no_stream' : BigInt(seeded - 1)).then((r) => {
      appendTimes.push(performance.now() - t0);
      if (r.nextExpectedRevision !== BigInt(seeded + n - 1)) throw new Error(`${streamId} at revision ${r.nextExpectedRevision}, expected ${seeded + n - 1}`);
    });
    batch = seeded + n < end ? batchFrom(seeded + n) : [];
    await appended;
    seeded += n;
    onProgress(seeded);
  }
  return appendTimes;
}

/**
 * An organisation and its exercise through the commands, then `count` AccountingEntryPosted events in
 * that exercise's ledger (one account pair), reporting progress every 3 s. Returns the append times too.
 */
export async function seedPostedLedger(
  core: Pick<Core, 'commands' | 'mutate'>,
  store: EventStore,
  name: string,
  count: number,
  log: (line: string) => void,
): Promise<SeededOrganisation & { appendTimes: number[]; ms: number }> {
  const seeded = await seedOrganisation(core, name);
  log(`  seeding ${count.toLocaleString('en')} AccountingEntryPosted events into ${seeded.streamId} ...`);
  const start = performance.now();
  let lastLog = start;
  const at = new Date().toISOString();
  const appendTimes = await appendPostedEvents(store, seeded.streamId, (n) => postedEvent(seeded.facts, n, at), { count }, (done) => {
    const now = performance.now();
    if (now - lastLog >= 3_000 || done === count) {
      lastLog = now;
      log(`    seeded ${done.toLocaleString('en')} / ${count.toLocaleString('en')} (${Math.round(done / ((now - start) / 1000)).toLocaleString('en')} events/s)`);
    }
  });
  return { ...seeded, appendTimes, ms: performance.now() - start };
}

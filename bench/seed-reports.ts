/**
 * Seeding the reports benchmark's ledger: one Spanish organisation with two exercises (this year's and last
 * year's), about 300 posting accounts of every class of its chart (the chart's own plus sub-accounts made through
 * the commands), 200 parties (100 customers, 100 suppliers, through the commands), then ENTRIES
 * AccountingEntryPosted events straight into the two ledger streams (a quarter last year's):
 *   - 2 lines mostly, 3 to 6 on one entry in 20 (mean about 2.1 lines), balanced, on accounts spread over the chart;
 *   - one entry in 20 has a line with a party (a customer on 4300000 or a supplier on 4000000);
 *   - dates over the exercise's 12 periods;
 *   - one event in 100 deletes an entry (AccountingEntryDeleted, numbered as the ledger numbers it): mostly one
 *     posted a little earlier (a deletion renumbers the entries after it, so deleting recent ones keeps that cheap),
 *     and about 20 per ledger, spread over the run, one from the first half of its live entries: deleted after the
 *     50% and 90% instants, lines recorded before them leave tombstones across them, which the as-of reads add back.
 * The store stamps recorded_at itself (clock_timestamp() at insert); the appends alternate between the two ledgers
 * in rounds over the whole seeding, so the events' recorded_at spread over its wall time (tens of seconds at full
 * size) and an instant at 50% or 90% of them splits the ledger meaningfully.
 */
import { randomUUID } from 'node:crypto';
import type { Core } from '../service/core.ts';
import type { EventStore, NewEvent } from '../eventstore/port.ts';
import { eventSchemaVersion } from '../eventstore/upcasters.ts';
import { appendPostedEvents, seedExercise, seedOrganisation, type LedgerFacts, type SeededOrganisation } from './seed-ledger.ts';

export const REPORTS_SEED = Object.freeze({
  postingAccounts: 300,
  customers: 100,
  suppliers: 100,
  /** One event in this many is a deletion. */
  deletionEvery: 100,
  /** A deletion removes one of the last this-many live entries of its ledger. */
  deletionReach: 50,
  /** About this many deletions per ledger reach back to the first half of its live entries instead. */
  farDeletions: 20,
  /** One entry in this many has a party's line; one in this many (another) has 3 to 6 lines. */
  partyEvery: 20,
  longEvery: 20,
  /** Appends alternate between the ledgers in this many rounds. */
  rounds: 20,
  /** Share of the entries in last year's exercise. */
  priorShare: 0.25,
});

interface Party {
  id: string;
  code: string;
  origin: 'CUSTOMER' | 'SUPPLIER';
  accountId: string;
}

export interface SeededReportsLedger {
  organisationId: string;
  exercises: { exerciseId: string; year: number; streamId: string; postings: number; deletions: number; lines: number; deletedLines: number }[];
  accounts: number;
  accountClasses: string[];
  parties: number;
  postings: number;
  deletions: number;
  lines: number;
  deletedLines: number;
  events: number;
  appendMs: number[];
  ms: number;
}

/** The chart's posting accounts, completed to `count` with sub-accounts under them (codes free in the chart). */
async function postingAccounts(core: Pick<Core, 'commands' | 'mutate'>, organisationId: string, count: number): Promise<{ ids: string[]; classes: string[] }> {
  const state = await core.commands.organisation(organisationId);
  const posting = [...state.accounts.values()].filter((a) => a.accountLevel === 'SUB_ACCOUNT' && !a.deactivated).sort((a, b) => a.code.localeCompare(b.code));
  const taken = new Set(state.accountIdByCode.keys());
  const ids = posting.map((a) => a.id);
  for (let i = 0; ids.length < count; i++) {
    const base = posting[i % posting.length].code;
    let n = 1 + Math.floor(i / posting.length);
    let code = `${base.slice(0, 4)}${String(n).padStart(3, '0')}`;
    while (taken.has(code)) code = `${base.slice(0, 4)}${String(++n).padStart(3, '0')}`;
    taken.add(code);
    const account = await core.mutate.createAccountingAccount({ organisationId }, { code, name: `Subcuenta ${code}` });
    ids.push(account.id as string);
  }
  return { ids, classes: [...new Set(posting.map((a) => a.code[0]))].sort() };
}

async function parties(core: Pick<Core, 'commands' | 'mutate'>, organisationId: string): Promise<Party[]> {
  const state = await core.commands.organisation(organisationId);
  const account = (code: string) => state.accountIdByCode.get(code) ?? fail(`the chart has no ${code}`);
  const made: Party[] = [];
  for (let i = 0; i < REPORTS_SEED.customers; i++) {
    const c = (await core.mutate.createCustomer({ organisationId }, { socialName: `Cliente ${i + 1} S.L.` })) as { id: string; code: string };
    made.push({ id: c.id, code: c.code, origin: 'CUSTOMER', accountId: account('4300000') });
  }
  for (let i = 0; i < REPORTS_SEED.suppliers; i++) {
    const s = (await core.mutate.createSupplier({ organisationId }, { socialName: `Proveedor ${i + 1} S.A.` })) as { id: string; code: string };
    made.push({ id: s.id, code: s.code, origin: 'SUPPLIER', accountId: account('4000000') });
  }
  return made;
}

function fail(message: string): never {
  throw new Error(message);
}

const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** One ledger's events in stream order: postings, and every `deletionEvery`-th event a deletion of a recent entry. */
class LedgerEvents {
  readonly live: string[] = [];
  /** Lines of each live entry, so a deletion knows how many lines it removes. */
  private readonly lineCounts = new Map<string, number>();
  postings = 0;
  deletions = 0;
  lines = 0;
  deletedLines = 0;

  /** Every this-many-th deletion reaches back (REPORTS_SEED.farDeletions over the ledger's `events`). */
  private readonly farEvery: number;

  constructor(private readonly facts: LedgerFacts, private readonly accounts: string[], private readonly parties: Party[], private readonly at: string, events: number) {
    this.farEvery = Math.max(1, Math.floor(events / REPORTS_SEED.deletionEvery / REPORTS_SEED.farDeletions));
  }

  /** Event `k` (1-based) of the stream. */
  event(k: number): NewEvent {
    if (k % REPORTS_SEED.deletionEvery === 0 && this.live.length > 0) return this.deletion(k);
    return this.posting(++this.postings);
  }

  private metadata() {
    const commandId = randomUUID();
    return { organisationId: this.facts.organisationId, correlationId: commandId, causationId: commandId };
  }

  private deletion(k: number): NewEvent {
    const ordinal = k / REPORTS_SEED.deletionEvery;
    // Far back: one of the first half of the live entries (spread by a prime stride), posted early in the run.
    const index = ordinal % this.farEvery === 0
      ? (ordinal * 7919) % Math.ceil(this.live.length / 2)
      : this.live.length - Math.min(this.live.length, 1 + (ordinal % REPORTS_SEED.deletionReach));
    const [entryId] = this.live.splice(index, 1);
    this.deletions++;
    this.deletedLines += this.lineCounts.get(entryId)!;
    this.lineCounts.delete(entryId);
    return {
      id: randomUUID(),
      type: 'AccountingEntryDeleted',
      data: { exerciseId: this.facts.exerciseId, entryId, number: index + 1, at: this.at },
      metadata: { ...this.metadata(), schemaVersion: eventSchemaVersion('AccountingEntryDeleted') },
    };
  }

  private posting(n: number): NewEvent {
    const period = this.facts.periods[n % this.facts.periods.length];
    const date = `${period.startDate.slice(0, 8)}${String(1 + ((n * 7) % 28)).padStart(2, '0')}`;
    const count = n % REPORTS_SEED.longEvery === 7 ? 3 + (Math.floor(n / REPORTS_SEED.longEvery) % 4) : 2;
    const party = n % REPORTS_SEED.partyEvery === 3 ? this.parties[Math.floor(n / REPORTS_SEED.partyEvery) % this.parties.length] : null;
    const A = this.accounts.length;
    const lines = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const last = i === count - 1;
      const cents = last ? total : 1 + ((n * 31 + i * 977) % 250_000);
      total += last ? 0 : cents;
      // A customer's line is a debit (the first), a supplier's a credit (the last).
      const onParty = party !== null && (party.origin === 'CUSTOMER' ? i === 0 : last);
      lines.push({
        lineId: randomUUID(), order: i + 1,
        subAccountId: onParty ? party.accountId : this.accounts[(n * 7 + i * 13) % A],
        debitAmount: last ? '0.00' : money(cents), creditAmount: last ? money(cents) : '0.00',
        description: null,
        thirdCode: onParty ? party.code : null,
        ...(onParty ? { thirdPartyId: party.id, thirdPartyOrigin: party.origin } : {}),
      });
    }
    const entryId = randomUUID();
    this.live.push(entryId);
    this.lineCounts.set(entryId, count);
    this.lines += count;
    const documentNumber = `R-${n}`;
    return {
      id: randomUUID(),
      type: 'AccountingEntryPosted',
      data: {
        exerciseId: this.facts.exerciseId, entryId, number: this.live.length, date, documentDate: date, documentNumber,
        description: `Asiento ${documentNumber}`, journalTypeId: this.facts.journalTypeId, periodId: period.periodId,
        sessionId: this.facts.sessionId, currencyCode: this.facts.currencyCode, entryType: 'GENERAL', sourceType: 'PUBLIC_API', lines, at: this.at,
      },
      metadata: { ...this.metadata(), schemaVersion: eventSchemaVersion('AccountingEntryPosted') },
    };
  }
}

/** Events that post `postings` entries when one in `deletionEvery` is a deletion. */
const eventsFor = (postings: number) => postings + Math.floor(postings / (REPORTS_SEED.deletionEvery - 1));

/** The organisation, its accounts and parties through the commands, then the two ledgers' events (see the file's comment). */
export async function seedReportsLedger(
  core: Pick<Core, 'commands' | 'mutate'>,
  store: EventStore,
  entries: number,
  log: (line: string) => void,
): Promise<SeededReportsLedger> {
  const current = await seedOrganisation(core, 'Reports Bench S.L.');
  const organisationId = current.facts.organisationId;
  const year = Number(current.facts.periods[0].startDate.slice(0, 4));
  const prior = await seedExercise(core, organisationId, year - 1);
  const accounts = await postingAccounts(core, organisationId, REPORTS_SEED.postingAccounts);
  const made = await parties(core, organisationId);
  const at = new Date().toISOString();
  const priorEntries = Math.floor(entries * REPORTS_SEED.priorShare);
  const ledgers = ([[prior, year - 1, priorEntries], [current, year, entries - priorEntries]] as [SeededOrganisation, number, number][]).map(([seeded, y, postings]) => ({
    seeded, year: y, events: new LedgerEvents(seeded.facts, accounts.ids, made, at, eventsFor(postings)), total: eventsFor(postings), done: 0,
  }));
  const totalEvents = ledgers.reduce((n, l) => n + l.total, 0);
  log(`  seeding ${totalEvents.toLocaleString('en')} events (${entries.toLocaleString('en')} entries, ${accounts.ids.length} accounts, ${made.length} parties) into two ledgers ...`);
  const start = performance.now();
  const appendMs: number[] = [];
  const share = (total: number, k: number) => Math.floor((total * (k + 1)) / REPORTS_SEED.rounds) - Math.floor((total * k) / REPORTS_SEED.rounds);
  let lastLog = start;
  for (let k = 0; k < REPORTS_SEED.rounds; k++) {
    for (const l of ledgers) {
      const count = share(l.total, k);
      if (count === 0) continue;
      appendMs.push(...(await appendPostedEvents(store, l.seeded.streamId, (i) => l.events.event(i), { from: l.done, count })));
      l.done += count;
    }
    const done = ledgers.reduce((n, l) => n + l.done, 0);
    if (performance.now() - lastLog >= 3_000 || k === REPORTS_SEED.rounds - 1) {
      lastLog = performance.now();
      log(`    seeded ${done.toLocaleString('en')} / ${totalEvents.toLocaleString('en')} (${Math.round(done / ((performance.now() - start) / 1000)).toLocaleString('en')} events/s)`);
    }
  }
  const sum = (f: (e: LedgerEvents) => number) => ledgers.reduce((n, l) => n + f(l.events), 0);
  return {
    organisationId,
    exercises: ledgers.map((l) => ({
      exerciseId: l.seeded.facts.exerciseId, year: l.year, streamId: l.seeded.streamId,
      postings: l.events.postings, deletions: l.events.deletions, lines: l.events.lines, deletedLines: l.events.deletedLines,
    })),
    accounts: accounts.ids.length,
    accountClasses: accounts.classes,
    parties: made.length,
    postings: sum((e) => e.postings),
    deletions: sum((e) => e.deletions),
    lines: sum((e) => e.lines),
    deletedLines: sum((e) => e.deletedLines),
    events: totalEvents,
    appendMs,
    ms: performance.now() - start,
  };
}

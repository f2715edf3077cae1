/**
 * Cross-process wake-ups for live subscribers. Appenders do not NOTIFY inside their transaction
 * (PostgreSQL serialises committing transactions that notify on one global lock); instead each process
 * coalesces its appends into one NOTIFY per COALESCE_MS after commit. Subscribers also poll,
 * so a lost notification delays an event, it never loses one.
 */
import pgListen from 'pg-listen';
import type pg from 'pg';
import { EventEmitter } from 'node:events';

// pg-listen is CommonJS with an `exports.default`; Node's ESM loader hands us the exports object.
const createSubscriber = ((pgListen as unknown as { default?: typeof pgListen }).default ?? pgListen) as unknown as typeof pgListen.default;

export const CHANNEL = 'es_events_appended';
/**
 * A NOTIFY is a transaction of its own (it needs an xid, so its commit is flushed to disk): at most
 * one per COALESCE_MS. Subscribers in this process are woken at once, without it.
 */
const COALESCE_MS = 10;

export class Wakeups {
  private readonly local = new EventEmitter();
  private listener: ReturnType<typeof createSubscriber> | undefined;
  private listening: Promise<void> | undefined;
  private notifyScheduled = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
  ) {
    this.local.setMaxListeners(1000);
  }

  /** Called after an append committed. */
  appended(): void {
    this.local.emit('wake'); // same-process subscribers need no round trip
    if (this.notifyScheduled) return;
    this.notifyScheduled = true;
    setTimeout(() => {
      this.notifyScheduled = false;
      this.pool.query(`SELECT pg_notify('${CHANNEL}', '')`).catch(() => {});
    }, COALESCE_MS).unref();
  }

  /** Registers a wake-up callback; returns its removal. Starts listening on first use. */
  async onWake(callback: () => void): Promise<() => void> {
    this.local.on('wake', callback);
    this.listening ??= this.listen();
    await this.listening;
    return () => this.local.off('wake', callback);
  }

  private async listen(): Promise<void> {
    this.listener = createSubscriber({ connectionString: this.connectionString });
    this.listener.notifications.on(CHANNEL, () => this.local.emit('wake'));
    this.listener.events.on('error', () => {}); // subscribers keep polling; pg-listen reconnects
    await this.listener.connect();
    await this.listener.listenTo(CHANNEL);
  }

  async close(): Promise<void> {
    this.local.removeAllListeners();
    if (this.listener) await this.listener.close().catch(() => {});
  }
}

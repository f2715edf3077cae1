/**
 * The real service over a fresh benchmark database, started in this process the way the tests start
 * it (test/helpers/service.ts), with a pool sized like production's (POOL_LIMITS), and a number of
 * organisations that each have an exercise for the current year and a full_access token. The first
 * organisation is the demo one (seedDemo); the others are set up the same way.
 */
import pg from 'pg';
import { seedDemo } from '../service/demo.ts';
import { startService, type Service } from '../service/start.ts';
import { loadConfig } from '../platform/config.ts';
import { POOL_LIMITS } from '../platform/database.ts'; // also installs the NUMERIC/INT8 type parsers

export interface BenchOrganisation {
  organisationId: string;
  exerciseId: string;
  token: string;
}

export interface BenchService {
  service: Service;
  pool: pg.Pool;
  organisations: BenchOrganisation[];
  /** http://127.0.0.1:PORT when started with `listen`. */
  base: string | undefined;
  close(): Promise<void>;
}

/** The entry every benchmark posts: two lines on accounts of the Spanish chart, in March of this year. */
export function entryInput(year = new Date().getUTCFullYear()) {
  return {
    date: `${year}-03-15`,
    journalTypeCode: 'GEN',
    accountingEntryLines: [
      { subAccountCode: '5720000', debitAmount: '10.00' },
      { subAccountCode: '1000000', creditAmount: '10.00' },
    ],
  };
}

export const ENTRY_MUTATION =
  'mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id number } }';

export async function startBenchService(url: string, organisationCount: number, options: { listen?: boolean } = {}): Promise<BenchService> {
  const pool = new pg.Pool({ connectionString: url, ...POOL_LIMITS });
  pool.on('error', () => {});
  let service: Service | undefined;
  try {
    const config = { ...loadConfig({}), databaseUrl: url, port: 0, logLevel: 'error' };
    service = await startService(config, { db: { url, pool, close: async () => {} }, logger: false });
    const organisations: BenchOrganisation[] = [];
    const demo = await seedDemo(service);
    organisations.push({ organisationId: demo.organisationId, exerciseId: await currentExercise(service, demo.organisationId), token: demo.token.access_token });
    const year = new Date().getUTCFullYear();
    for (let i = 1; i < organisationCount; i++) {
      const { commands, mutate, identity } = service;
      const org = await commands.createOrganisation({}, { name: `Bench ${i} S.L.`, country: 'ES' });
      const exercise = await mutate.createAccountingExercise({ organisationId: org.id }, { startDate: `${year}-01-01`, endDate: `${year}-12-31`, description: `Ejercicio ${year}` });
      const email = `bench-${i}@example.com`;
      await identity.createUser(org.id, email, 'bench-password', 'admin');
      const token = await identity.issueToken(org.id, email, demo.client.client_id, 'full_access');
      await service.daemon.waitFor(exercise.position, 30_000);
      organisations.push({ organisationId: org.id, exerciseId: exercise.id, token: token.access_token });
    }
    let base: string | undefined;
    if (options.listen) {
      await service.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(service.app.server.address() as { port: number }).port}`;
    }
    const running = service;
    return {
      service: running,
      pool,
      organisations,
      base,
      async close() {
        try {
          await running.close();
        } finally {
          await pool.end();
        }
      },
    };
  } catch (error) {
    await service?.close().catch(() => {});
    await pool.end();
    throw error;
  }
}

async function currentExercise(service: Service, organisationId: string): Promise<string> {
  const state = await service.commands.organisation(organisationId);
  const year = String(new Date().getUTCFullYear());
  const exercise = [...state.exercises.values()].find((e) => e.startDate.startsWith(year));
  if (!exercise) throw new Error(`organisation ${organisationId} has no exercise for ${year}`);
  return exercise.id;
}

/** Waits until the projections include everything appended so far (e.g. requests still in flight at a run's end). */
export async function settle(service: Service, timeoutMs = 30_000): Promise<boolean> {
  return service.daemon.waitFor(await service.store.headPosition(), timeoutMs);
}

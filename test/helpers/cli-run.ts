/** The operator CLI as a real process against a test database: its exit code and both outputs. */
import { execFile } from 'node:child_process';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `ledger <args>` with DATABASE_URL set to `databaseUrl` (no demo, quiet logs), run in `cwd` (default: the current directory). */
export function ledgerCli(databaseUrl: string, args: string[], cwd = process.cwd()): Promise<CliRun> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, DEMO: '0', LOG_LEVEL: 'error' };
  const entry = new URL('../../cli/ledger.ts', import.meta.url).pathname;
  const tsx = import.meta.resolve('tsx'); // (resolved here: `cwd` may be outside the checkout)
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', tsx, entry, ...args], { env, cwd, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

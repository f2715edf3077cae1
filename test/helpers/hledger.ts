/**
 * hledger, the independent double-entry tool the statement tests check against (Debian's package; .ci/run installs
 * it, tests skip without it). Accounts are named by their code's prefixes (5720000 → c:5:57:572:…:5720000), so an
 * account query on a prefix selects exactly the codes that start with it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { Decimal } from '../../domain/money.ts';

export const HLEDGER = ['/usr/bin/hledger', '/usr/local/bin/hledger'].find((file) => existsSync(file));
export const HLEDGER_MISSING = 'hledger is not installed (apt-get install hledger): skipping';

const run = promisify(execFile);

export const accountName = (code: string) => `c:${[...code].map((_, i) => code.slice(0, i + 1)).join(':')}`;

/** `hledger bal --flat` of the journal for the arguments: account name → amount (debit positive), the total left out. */
export async function hledgerBalances(file: string, args: string[] = []): Promise<Map<string, Decimal>> {
  const { stdout } = await run(HLEDGER!, ['-f', file, 'bal', '--flat', '-O', 'csv', ...args]);
  const out = new Map<string, Decimal>();
  for (const line of stdout.trim().split('\n').slice(1)) {
    const [name, amount] = line.split('","').map((s) => s.replaceAll('"', ''));
    if (name !== 'total') out.set(name!, new Decimal(amount!));
  }
  return out;
}

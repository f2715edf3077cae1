/**
 * The operator CLI (`npx ledger ...`, DESIGN.md): same configuration as the server. `--json` prints
 * one JSON object. Long work (rebuilds) shows progress on stderr and resumes after an interruption.
 * Exit codes: 0 done, 1 the command failed (one line on stderr), 2 a mistake on the command line.
 */
import { openCore } from '../service/core.ts';

import { localize } from '../api/i18n.ts';
import { BusinessError } from '../domain/errors.ts';
import { loadConfig } from '../platform/config.ts';
import { UsageError, commandHelp, findCommand, globalHelp, parseCommand } from './args.ts';
import { COMMANDS, type CliContext } from './commands.ts';

/** One line for the operator: a business refusal as its field and reason, or its English message. */
function explain(error: unknown): string {
  if (error instanceof BusinessError) {
    const { field, reason } = error.params;
    return field !== undefined && reason !== undefined ? `${field}: ${reason}` : localize(error.code, error.params, 'en');
  }
  return error instanceof Error ? error.message : String(error);
}

async function main(argv: string[]): Promise<number> {
  const [first, ...after] = argv;
  if (first === undefined) {
    process.stderr.write(`${globalHelp(COMMANDS)}\n`);
    return 2;
  }
  if (first === '-h' || first === '--help' || (first === 'help' && after.length === 0)) {
    process.stdout.write(`${globalHelp(COMMANDS)}\n`);
    return 0;
  }
  if (first === 'help') {
    process.stdout.write(`${commandHelp(findCommand(COMMANDS, after).command)}\n`);
    return 0;
  }
  const { command, rest } = findCommand(COMMANDS, argv);
  const { help, values, positional } = parseCommand(command, rest);
  if (help) {
    process.stdout.write(`${commandHelp(command)}\n`);
    return 0;
  }
  const config = loadConfig();
  const print: CliContext['print'] = (result, human) => process.stdout.write(values.json || !human ? `${JSON.stringify(result, null, values.json ? 0 : 2)}\n` : `${human()}\n`);
  if (command.offline) return (await command.run({ config, print, get core(): never { throw new Error(`${command.name} runs without the database`); } }, values, positional)) ?? 0;
  const core = await openCore(config);
  try {
    return (await command.run({ core, config, print }, values, positional)) ?? 0;
  } finally {
    await core.store.close();
    await core.db.close();
  }
}

let code: number;
try {
  code = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${explain(error)}\n`);
  code = error instanceof UsageError ? 2 : 1;
}
process.exit(code);

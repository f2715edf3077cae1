/**
 * The CLI's command line: each command declares its options (with what they mean), and this module
 * finds the command, parses its options strictly (node:util parseArgs), checks required options, choices
 * and ids, and writes each command's help. Mistakes are one-line usage errors (exit 2), never a stack.
 */
import { parseArgs } from 'node:util';
import { canonicalUuid } from '../domain/ids.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** What the value is, in the usage line: `--org ID`. */
  value?: string;
  description: string;
  required?: boolean;
  /** Allowed values (compared in upper case when `upperCase`); a comma list when `list`. */
  choices?: readonly string[];
  upperCase?: boolean;
  list?: boolean;
  /** The value names a record by its UUID (refused before it reaches the database otherwise). */
  uuid?: boolean;
  /** The option may be given more than once: its value is then the list of them, in order. */
  multiple?: boolean;
}

export type Values = Record<string, string | string[] | boolean | undefined>;

export interface Command<C = unknown> {
  /** One or two words: `history`, `org create`. */
  name: string;
  summary: string;
  /** More about the command, printed under its usage line. */
  details?: string;
  options: Record<string, OptionSpec>;
  /** One optional positional argument: `projections rebuild [NAME]`. */
  positional?: { name: string; description: string };
  /** Whether the command needs the database (most do). */
  offline?: boolean;
  run(context: C, values: Values, positional: string | undefined): Promise<number | void>;
}

/** A mistake on the command line: one line on stderr, exit 2. */
export class UsageError extends Error {}

const COMMON: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'print one JSON object instead of text' },
  help: { type: 'boolean', description: 'print this help' },
};

const flag = (name: string, spec: OptionSpec) => (spec.type === 'string' ? `--${name} ${spec.value ?? 'VALUE'}` : `--${name}`);

export function commandUsage(command: Command<any>): string {
  const options = Object.entries(command.options).map(([name, spec]) => (spec.required ? flag(name, spec) : `[${flag(name, spec)}]`));
  const positional = command.positional ? [`[${command.positional.name}]`] : [];
  return `ledger ${command.name} ${[...positional, ...options, '[--json]'].join(' ')}`;
}

export function commandHelp(command: Command<any>): string {
  const rows: Array<[string, string]> = [];
  if (command.positional) rows.push([command.positional.name, command.positional.description]);
  for (const [name, spec] of Object.entries({ ...command.options, ...COMMON })) {
    const choices = spec.choices ? `; ${spec.list ? 'any of, comma-separated' : 'one of'}: ${spec.choices.join(', ')}` : '';
    rows.push([name === 'help' ? '-h, --help' : flag(name, spec), `${spec.description}${choices}${spec.required ? ' [required]' : ''}`]);
  }
  const width = Math.min(28, Math.max(...rows.map(([left]) => left.length)) + 2);
  return [
    `Usage: ${commandUsage(command)}`, '', command.summary, ...(command.details ? ['', command.details] : []), '', 'Options:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}${left.length >= width ? `\n  ${' '.repeat(width)}` : ''}${right}`),
  ].join('\n');
}

export function globalHelp(commands: Array<Command<any>>): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'Usage: ledger <command> [options] [--json]', '',
    'The ledger service\'s operator commands, with the configuration of `npm start` (DATABASE_URL, DATA_DIR, EVENT_STORE, ...).', '',
    'Commands:', ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`), '',
    'Run `ledger <command> --help` (or `ledger help <command>`) for its options.',
  ].join('\n');
}

/** The command named by the first words of `argv`, and the arguments after them. */
export function findCommand<C>(commands: Array<Command<C>>, argv: string[]): { command: Command<C>; rest: string[] } {
  const [first = '', second = ''] = argv;
  const two = commands.find((c) => c.name === `${first} ${second}`);
  if (two) return { command: two, rest: argv.slice(2) };
  const one = commands.find((c) => c.name === first);
  if (one) return { command: one, rest: argv.slice(1) };
  const inArea = commands.filter((c) => c.name.startsWith(`${first} `));
  if (inArea.length > 0) {
    const what = second && !second.startsWith('-') ? `unknown command '${first} ${second}'` : `'${first}' needs a command`;
    throw new UsageError(`ledger: ${what}; ${first} commands: ${inArea.map((c) => c.name).join(', ')}`);
  }
  throw new UsageError(first.startsWith('-') ? `ledger: unknown option ${first}; the command comes first (see ledger help)` : `ledger: unknown command '${first}' (see ledger help)`);
}

/** The options of one command, parsed strictly and checked; `help` when --help or -h was given. */
export function parseCommand(command: Command<any>, args: string[]): { help: boolean; values: Values; positional?: string } {
  const see = `(see ledger ${command.name} --help)`;
  const specs = { ...command.options, ...COMMON };
  const options = Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, name === 'help' ? { type: 'boolean' as const, short: 'h' } : { type: spec.type, multiple: (spec as OptionSpec).multiple === true }]));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(`ledger ${command.name}: ${parseProblem(error as Error & { code?: string })} ${see}`);
  }
  const values = parsed.values as Values;
  if (values.help) return { help: true, values };
  const positionals = parsed.positionals;
  if (positionals.length > (command.positional ? 1 : 0)) throw new UsageError(`ledger ${command.name}: unexpected argument '${positionals[command.positional ? 1 : 0]}' ${see}`);
  const missing = Object.entries(command.options).filter(([name, spec]) => spec.required && (values[name] === undefined || values[name] === '')).map(([name]) => `--${name}`);
  if (missing.length) throw new UsageError(`ledger ${command.name}: missing ${missing.join(', ')} ${see}`);
  for (const [name, spec] of Object.entries(command.options)) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    if (spec.uuid) {
      // Ids are compared and used in stream names as text: one in upper case would name nothing.
      const id = canonicalUuid(value);
      if (!id) throw new UsageError(`ledger ${command.name}: --${name} must be an id (a UUID), not '${value}'`);
      values[name] = id;
    }
    if (spec.choices) {
      const given = spec.list ? value.split(',').map((v) => v.trim()).filter(Boolean) : [value];
      const wrong = given.filter((v) => !spec.choices!.includes(spec.upperCase ? v.toUpperCase() : v));
      if (wrong.length) throw new UsageError(`ledger ${command.name}: --${name} ${wrong.map((w) => `'${w}'`).join(', ')} is not supported; ${spec.list ? 'each one of' : 'one of'}: ${spec.choices.join(', ')}`);
    }
  }
  return { help: false, values, positional: positionals[0] };
}

/** parseArgs' messages are long and suggest `--`; ours name the option and nothing else. */
function parseProblem(error: Error & { code?: string }): string {
  const option = /'([^']+)'/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(error.message)) return `${option?.split(' ')[0] ?? 'an option'} needs a value`;
      if (/ambiguous/.test(error.message)) return `${option} needs a value (write ${option}=-X for one starting with -)`;
      return `${option ?? 'an option'} takes no value`;
    default:
      return error.message.split('\n')[0];
  }
}

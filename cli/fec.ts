/** `ledger export fec`: one exercise's FEC file (projections/reports/fec.ts) written where the operator says, or under its official name. */
import { once } from 'node:events';
import { open, rename, unlink } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { PROJECTIONS } from '../service/core.ts';
import { projectionStatus } from '../projections/engine/rebuild.ts';
import { canonicalUuid } from '../domain/ids.ts';
import { FecRefused, fecExerciseYears, fecFileName, fecLines, findFecExercise } from '../projections/reports/fec.ts';
import { UsageError, type Command } from './args.ts';
import { CliFailure, type CliContext } from './commands.ts';

export const exportFec: Command<CliContext> = {
  name: 'export fec', summary: 'write an exercise\'s FEC (fichier des écritures comptables, LPF art. A47 A-1): 18 tab-separated columns, one row per entry line',
  details: 'Open or closed exercises. The file is named <organisation id>FEC<closing date YYYYMMDD>.txt unless --out names it; it is written as FILE.tmp and renamed once whole (nothing is left on failure). Read from the read models: refused while the entries read model is behind (start the service to catch up), unless --allow-stale.',
  options: {
    org: { type: 'string', value: 'ID', description: 'the organisation id', required: true, uuid: true },
    exercise: { type: 'string', value: 'ID|YEAR', description: 'the exercise: its id, or its year (e.g. 2026)', required: true },
    out: { type: 'string', value: 'FILE', description: 'where to write it (default: the official name, in the current directory)' },
    'allow-stale': { type: 'boolean', description: 'write it even while the entries read model is behind the events (a warning says by how many)' },
  },
  async run({ core, print }, v) {
    const organisationId = String(v.org);
    const wanted = String(v.exercise).trim();
    const id = canonicalUuid(wanted);
    if (!id && !/^\d{4}$/.test(wanted)) throw new UsageError(`ledger export fec: --exercise must be an exercise id (UUID) or a year (e.g. 2026), not '${wanted}'`);
    const exercise = await findFecExercise(core.db.pool, organisationId, id ? { id } : { year: Number(wanted) });
    if (!exercise) {
      const years = await fecExerciseYears(core.db.pool, organisationId);
      throw new CliFailure(`no exercise ${wanted} in organisation ${organisationId} (${years.length ? `its exercises: ${years.join(', ')}` : 'it has none, or no such organisation'})`);
    }
    if (exercise.country !== 'FR') process.stderr.write(`warning: organisation ${organisationId} is ${exercise.country}, not French: the FEC is France's format\n`);
    const [entries] = await projectionStatus(core.db.pool, PROJECTIONS.filter((p) => p.name === 'entries'));
    const behind = entries?.eventsBehind ?? -1;
    if (behind !== 0) {
      // Refused rather than waited for: this process does not run the projections, the service does.
      const state = behind < 0 ? 'has not been built' : `is ${behind} events behind`;
      if (!v['allow-stale']) throw new CliFailure(`the entries read model ${state}: the FEC would miss entries; start the service (npm start) to bring it up to date, or pass --allow-stale`);
      process.stderr.write(`warning: the entries read model ${state}; written anyway (--allow-stale)\n`);
    }

    const file = typeof v.out === 'string' ? v.out : fecFileName(organisationId, exercise);
    const rows = await writeWhole(file, fecLines(core.db.pool, organisationId, exercise.id)).catch((error: NodeJS.ErrnoException) => {
      if (error instanceof FecRefused) throw new CliFailure(error.message);
      if (typeof error.code === 'string' && error.syscall) throw new CliFailure(`cannot write ${file}: ${error.message}`);
      throw error;
    });
    print({ file, exerciseId: exercise.id, exercise: exercise.exercise, status: exercise.status, rows }, () => `${file}: ${rows} lines of exercise ${exercise.exercise} (${String(exercise.status ?? 'undefined').toLowerCase()})`);
  },
};

/**
 * Writes the lines to FILE.tmp and renames it to FILE once every line is written: a reader never sees half a file,
 * and a failure (a refused line, the disk, the database) leaves no file behind. Answers the entry lines written.
 */
async function writeWhole(file: string, lines: AsyncIterable<string>): Promise<number> {
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w');
  const out = handle.createWriteStream({ encoding: 'utf8' });
  let rows = -1; // (the header is no entry line)
  try {
    for await (const line of lines) {
      rows += 1;
      if (!out.write(`${line}\n`)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    await rename(tmp, file);
    return rows;
  } catch (error) {
    out.destroy();
    await unlink(tmp).catch(() => {});
    throw error;
  }
}

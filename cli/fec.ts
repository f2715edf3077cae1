/** `ledger export fec`: one exercise's FEC file (reports/fec.ts) written where the operator says, or under its official name. */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { PROJECTIONS } from '../service/core.ts';
import { projectionStatus } from '../projections/engine/rebuild.ts';
import { canonicalUuid } from '../domain/ids.ts';
import { fecExerciseYears, fecFileName, fecLines, findFecExercise } from '../reports/fec.ts';
import { UsageError, type Command } from './args.ts';
import { CliFailure, type CliContext } from './commands.ts';

export const exportFec: Command<CliContext> = {
  name: 'export fec', summary: 'write an exercise\'s FEC (fichier des écritures comptables, LPF art. A47 A-1): 18 tab-separated columns, one row per entry line',
  details: 'Open or closed exercises. The file is named <organisation id>FEC<closing date YYYYMMDD>.txt unless --out names it. Read from the read models: start the service first if they are behind.',
  options: {
    org: { type: 'string', value: 'ID', description: 'the organisation id', required: true, uuid: true },
    exercise: { type: 'string', value: 'ID|YEAR', description: 'the exercise: its id, or its year (e.g. 2026)', required: true },
    out: { type: 'string', value: 'FILE', description: 'where to write it (default: the official name, in the current directory)' },
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
    if (entries?.eventsBehind) process.stderr.write(`warning: the entries read model is ${entries.eventsBehind} events behind; start the service (npm start) to bring it up to date\n`);

    const file = typeof v.out === 'string' ? v.out : fecFileName(organisationId, exercise);
    const out = createWriteStream(file, { encoding: 'utf8' });
    let rows = -1; // (the header is no entry line)
    try {
      for await (const line of fecLines(core.db.pool, organisationId, exercise.id)) {
        rows += 1;
        if (!out.write(`${line}\n`)) await once(out, 'drain');
      }
    } finally {
      out.end();
    }
    await finished(out);
    print({ file, exerciseId: exercise.id, exercise: exercise.exercise, status: exercise.status, rows }, () => `${file}: ${rows} lines of exercise ${exercise.exercise} (${String(exercise.status ?? 'undefined').toLowerCase()})`);
  },
};

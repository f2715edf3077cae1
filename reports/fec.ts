/**
 * The French FEC (fichier des écritures comptables, LPF article A47 A-1): one exercise's entry lines as the
 * 18 columns the tax administration names, tab separated, UTF-8, dates YYYYMMDD, amounts with a decimal comma
 * and no thousands separator, sorted by EcritureDate then EcritureNum. Read from the read models (entries,
 * lines, accounts, journals, parties, payment matching) through a cursor, so an exercise of any size streams.
 */
import type pg from 'pg';

export const FEC_COLUMNS = [
  'JournalCode', 'JournalLib', 'EcritureNum', 'EcritureDate', 'CompteNum', 'CompteLib', 'CompAuxNum', 'CompAuxLib',
  'PieceRef', 'PieceDate', 'EcritureLib', 'Debit', 'Credit', 'EcritureLet', 'DateLet', 'ValidDate', 'Montantdevise', 'Idevise',
] as const;

export interface FecExercise {
  id: string;
  exercise: number;
  /** YYYYMMDD: the file's name carries it. */
  closingDate: string;
  status: string;
  country: string;
}

/** Lines fetched per round trip: bounds the memory an export holds whatever the exercise's size. */
const PAGE = 5000;

const yyyymmdd = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYYMMDD')`;
const amount = (column: string) => `replace(round(coalesce(${column}, 0), 2)::text, '.', ',')`;

/** The exercise an operator names by id or by year (e.g. 2026); undefined when the organisation has none such. */
export async function findFecExercise(pool: pg.Pool, organisationId: string, exercise: { id: string } | { year: number }): Promise<FecExercise | undefined> {
  const byId = 'id' in exercise;
  const { rows } = await pool.query(
    `SELECT x.id, x.exercise, ${yyyymmdd('x.end_date')} AS "closingDate", x.status, o.country
     FROM accounting_exercises x JOIN organisations o ON o.id = x.organisation_id
     WHERE x.organisation_id = $1 AND ${byId ? 'x.id = $2::uuid' : 'x.exercise = $2::int'}`,
    [organisationId, byId ? exercise.id : exercise.year],
  );
  return rows[0];
}

/** The organisation's exercises by year, for an error that says which exist. */
export async function fecExerciseYears(pool: pg.Pool, organisationId: string): Promise<number[]> {
  const { rows } = await pool.query(`SELECT exercise FROM accounting_exercises WHERE organisation_id = $1 ORDER BY exercise`, [organisationId]);
  return rows.map((r) => r.exercise);
}

/**
 * Every FEC field of one line. PieceRef and EcritureLib are mandatory: the entry's document, else the line's, else
 * the entry number; the line's text, else the entry's, else the journal's name. ValidDate is when the entry was
 * recorded (a posting is final when made), never before its own date (an entry recorded ahead of its date is
 * valid from that date). EcritureLet/DateLet: the matching letter of a settled line and when it was lettered.
 */
const LINES_SQL = `
SELECT j.code, j.name, e.number::text, ${yyyymmdd('e.date')}, a.code, a.name, l.third_code,
  coalesce(c.social_name, s.social_name, m.name),
  coalesce(e.document_number, l.document_number, e.number::text), ${yyyymmdd('coalesce(e.document_date, e.date)')},
  coalesce(nullif(l.description, ''), nullif(e.description, ''), j.name, ''),
  ${amount('l.debit_amount')}, ${amount('l.credit_amount')},
  p.matching_letter, CASE WHEN p.matching_letter IS NOT NULL THEN ${yyyymmdd('p.creation_date')} END,
  ${yyyymmdd('greatest(e.creation_date, e.date)')}, NULL, NULL
FROM accounting_entries e
JOIN accounting_entry_lines l ON l.organisation_id = e.organisation_id AND l.accounting_entry_id = e.id
JOIN accounting_accounts a ON a.organisation_id = e.organisation_id AND a.id = l.sub_account_id
LEFT JOIN journal_types j ON j.organisation_id = e.organisation_id AND j.id = e.journal_type_id
LEFT JOIN accounting_entry_payments p ON p.organisation_id = e.organisation_id AND p.id = l.accounting_entry_payment_id
LEFT JOIN customers c ON l.third_party_origin = 'CUSTOMER' AND c.organisation_id = e.organisation_id AND c.id = l.third_party_id
LEFT JOIN suppliers s ON l.third_party_origin = 'SUPPLIER' AND s.organisation_id = e.organisation_id AND s.id = l.third_party_id
LEFT JOIN employees m ON l.third_party_origin = 'EMPLOYEE' AND m.organisation_id = e.organisation_id AND m.id = l.third_party_id
WHERE e.organisation_id = $1 AND e.accounting_exercise_id = $2
ORDER BY e.date, e.number, l.line_order`;

/** A field as the format allows it: no tab or line break inside (they separate fields and rows). */
const field = (value: unknown) => (value === null || value === undefined ? '' : String(value).replace(/[\t\r\n]+/g, ' '));

/**
 * The file's lines (header first), each without its line break: one query, sorted once, fetched through a cursor
 * page by page, in one snapshot (every entry whole and balanced while postings go on).
 */
export async function* fecLines(pool: pg.Pool, organisationId: string, exerciseId: string): AsyncGenerator<string> {
  yield FEC_COLUMNS.join('\t');
  const client = await pool.connect();
  let done = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query({ text: `DECLARE fec NO SCROLL CURSOR FOR ${LINES_SQL}`, values: [organisationId, exerciseId] });
    for (;;) {
      const { rows } = await client.query({ text: `FETCH ${PAGE} FROM fec`, rowMode: 'array' });
      for (const row of rows) yield row.map(field).join('\t');
      if (rows.length < PAGE) break;
    }
    await client.query('COMMIT');
    done = true;
  } finally {
    // A reader that stopped early (or an error) leaves the transaction open: that connection is closed, not reused.
    client.release(!done);
  }
}

/** The name the administration expects: `<SIREN>FEC<closing date>.txt` (the organisation id stands in for a SIREN the books do not hold). */
export const fecFileName = (organisationId: string, exercise: FecExercise) => `${organisationId}FEC${exercise.closingDate}.txt`;

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

/** A text column as the format reads it: trimmed, and absent when nothing is left. */
const text = (column: string) => `nullif(trim(${column}), '')`;

/**
 * Every FEC field of one line, then why the line cannot be exported (null when it can). The mandatory fields are
 * never empty: PieceRef is the entry's document, else the line's, else the entry number; EcritureLib the line's
 * text, else the entry's, else the journal's name, else its code; JournalLib the journal's name, else its code;
 * CompAuxLib the third party's name, else its code (a third party the read models do not hold by name).
 * ValidDate is when the entry was recorded (a posting is final when made), never before its own date (an entry
 * recorded ahead of its date is valid from that date). EcritureLet/DateLet: the matching letter of a settled line
 * and when it was lettered. A line whose account or journal the read models lack, or whose account number is
 * shorter than the 3 digits of a PCG class, is refused rather than dropped or written blank (FecRefused).
 */
const LINES_SQL = `
SELECT ${text('j.code')}, coalesce(${text('j.name')}, ${text('j.code')}), e.number::text, ${yyyymmdd('e.date')}, trim(a.code), a.name, ${text('l.third_code')},
  CASE WHEN ${text('l.third_code')} IS NOT NULL THEN coalesce(${text('c.social_name')}, ${text('s.social_name')}, ${text('m.name')}, ${text('l.third_code')}) END,
  coalesce(${text('e.document_number')}, ${text('l.document_number')}, e.number::text), ${yyyymmdd('coalesce(e.document_date, e.date)')},
  coalesce(${text('l.description')}, ${text('e.description')}, ${text('j.name')}, ${text('j.code')}, e.number::text),
  ${amount('l.debit_amount')}, ${amount('l.credit_amount')},
  p.matching_letter, CASE WHEN p.matching_letter IS NOT NULL THEN ${yyyymmdd('p.creation_date')} END,
  ${yyyymmdd('greatest(e.creation_date, e.date)')}, NULL, NULL,
  CASE WHEN a.id IS NULL THEN concat('a line of entry ', e.number, ' names account ', coalesce(l.sub_account_id::text, 'none'), ', which the accounts read model does not hold')
    WHEN length(coalesce(trim(a.code), '')) < 3 THEN concat('account ''', a.code, ''' (', a.name, ') is shorter than the 3 characters a CompteNum needs (entry ', e.number, '): give it a longer code')
    WHEN ${text('j.code')} IS NULL THEN concat('entry ', e.number, ' names journal ', coalesce(e.journal_type_id::text, 'none'), ', which the read models hold without a code') END
FROM accounting_entries e
JOIN accounting_entry_lines l ON l.organisation_id = e.organisation_id AND l.accounting_entry_id = e.id
LEFT JOIN accounting_accounts a ON a.organisation_id = e.organisation_id AND a.id = l.sub_account_id
LEFT JOIN journal_types j ON j.organisation_id = e.organisation_id AND j.id = e.journal_type_id
LEFT JOIN accounting_entry_payments p ON p.organisation_id = e.organisation_id AND p.id = l.accounting_entry_payment_id
LEFT JOIN customers c ON l.third_party_origin = 'CUSTOMER' AND c.organisation_id = e.organisation_id AND c.id = l.third_party_id
LEFT JOIN suppliers s ON l.third_party_origin = 'SUPPLIER' AND s.organisation_id = e.organisation_id AND s.id = l.third_party_id
LEFT JOIN employees m ON l.third_party_origin = 'EMPLOYEE' AND m.organisation_id = e.organisation_id AND m.id = l.third_party_id
WHERE e.organisation_id = $1 AND e.accounting_exercise_id = $2
ORDER BY e.date, e.number, l.line_order`;

/** An exercise the FEC cannot be written for as its books stand: the message names the account or entry. */
export class FecRefused extends Error {}

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
      for (const row of rows) {
        const refused = row.pop();
        if (refused) throw new FecRefused(`the FEC cannot be written: ${refused}`);
        yield row.map(field).join('\t');
      }
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

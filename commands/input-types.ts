/**
 * Names the GraphQL type a zod input schema is served as (an input object, an enum, or a scalar such
 * as UUID or Decimal). The zod schema is then the one definition of a mutation's input: validation
 * runs on it and api/graphql/input-sdl.ts generates the SDL input types from it.
 */
import { z } from 'zod';
import { Decimal } from '../domain/money.ts';

const NAMES = new WeakMap<z.ZodType, string>();

export function named<T extends z.ZodType>(name: string, schema: T): T {
  NAMES.set(schema, name);
  return schema;
}

export const typeNameOf = (schema: z.ZodType): string | undefined => NAMES.get(schema);

/**
 * Decimal inputs (amounts, prices, discounts, percentages) in plain notation, with bounded digits: more than
 * any amount the domain accepts, so the domain's own rules (sign, precision, maximum) still decide.
 * `exactNumberDigits`: a JSON number arrives already rounded to a binary double by JSON.parse. Every decimal of
 * at most 15 significant digits comes back unchanged from that rounding (text -> double -> shortest text), so a
 * number whose shortest text has at most 15 is what the client wrote; one with more may not be (99999999999999.99
 * reads as 99999999999999.98) and is refused, asking for a string. (A client writing more than 15 digits that
 * round onto a shorter number cannot be seen once JSON.parse has run: /graphql finds it in the text sent,
 * api/graphql/sent-numbers.ts.)
 */
export const DECIMAL_LIMITS = Object.freeze({ integerDigits: 20, fractionDigits: 20, exactNumberDigits: 15 });
export const DECIMAL_TEXT = new RegExp(`^-?\\d{1,${DECIMAL_LIMITS.integerDigits}}(\\.\\d{1,${DECIMAL_LIMITS.fractionDigits}})?$`);

export class DecimalInputError extends Error {
  constructor(
    readonly code: 'INVALID_DECIMAL' | 'INEXACT_DECIMAL',
    message: string,
  ) {
    super(message);
  }
}

/** The refusal of a JSON number that may not be the one sent (`text`: as read, or as sent when known). */
export function inexactNumber(text: string, plain = text): DecimalInputError {
  return new DecimalInputError(
    'INEXACT_DECIMAL',
    `The JSON number ${text} has more than ${DECIMAL_LIMITS.exactNumberDigits} significant digits, so it may not be the number that was sent (JSON numbers are read as binary floating point): send decimals as strings, e.g. "${plain}".`,
  );
}

const shown = (value: unknown) => (typeof value === 'string' && value.length > 50 ? `${JSON.stringify(value.slice(0, 50))}…` : JSON.stringify(value));

/** The exact decimal text of a Decimal input (a string, or a JSON number that is exact), or a DecimalInputError. */
export function decimalText(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' && Number.isFinite(value)) {
    const exact = new Decimal(String(value)); // the shortest text that reads back as this double
    if (exact.sd() > DECIMAL_LIMITS.exactNumberDigits) throw inexactNumber(String(value), exact.toFixed());
    text = exact.toFixed();
  } else throw new DecimalInputError('INVALID_DECIMAL', `A Decimal is a string such as "1234.56" (or an exact JSON number), not ${shown(value)}.`);
  if (!DECIMAL_TEXT.test(text)) {
    throw new DecimalInputError(
      'INVALID_DECIMAL',
      `${shown(text)} is not a Decimal: digits with an optional leading "-" and decimal point, at most ${DECIMAL_LIMITS.integerDigits} digits before the point and ${DECIMAL_LIMITS.fractionDigits} after, e.g. "1234.56".`,
    );
  }
  return text;
}

/** Scalars of the SDL, named once so every input uses the same ones. */
export const gql = {
  // Lower case: ids are compared as text in the aggregates, and reads already take any case (PostgreSQL's uuid).
  uuid: named('UUID', z.uuid().transform((id) => id.toLowerCase())),
  decimal: named(
    'Decimal',
    z.union([z.string(), z.number()]).transform((value, ctx) => {
      try {
        return decimalText(value);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
        return z.NEVER;
      }
    }),
  ),
  int: named('Int', z.int()),
  enumOf: <const T extends readonly [string, ...string[]]>(name: string, values: T) => named(name, z.enum(values)),
};

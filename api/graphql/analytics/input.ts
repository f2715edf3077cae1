/**
 * The analytics roots' input checks: a name must be one the catalog offers, a day must be a day. Every refusal is
 * a GraphQL error coded INVALID_QUERY that names the input field, as the other report roots answer.
 */
import { GraphQLError } from 'graphql';
import { dayOf } from '../sales-kpis.ts';

export const invalid = (field: string, message: string) => new GraphQLError(`input.${field}: ${message}`, { extensions: { code: 'INVALID_QUERY' } });

/** The entry `name` picks among a definition's named ones (filters, group-bys, columns...); unknown: refused. */
export function named<T>(choices: Readonly<Record<string, T>>, name: string, field: string): T {
  if (!Object.hasOwn(choices, name)) {
    throw invalid(field, `${JSON.stringify(name.slice(0, 100))} is not one of ${Object.keys(choices).map((c) => JSON.stringify(c)).join(', ')}`);
  }
  return choices[name];
}

/** A day (YYYY-MM-DD) from a date or a date-time (its UTC day). */
export const day = (value: unknown, field: string) => dayOf(value, field);

/** A range of days, both included: dateMax before dateMin is refused. */
export function dayRange(dateMin: unknown, dateMax: unknown): { min: string; max: string } {
  const min = day(dateMin, 'dateMin');
  const max = day(dateMax, 'dateMax');
  if (max < min) throw invalid('dateMax', `${max} is before dateMin ${min}`);
  return { min, max };
}

/** Definitions whose context contains `text` (case-insensitive); all without it. */
export const containing = <T extends { context: string }>(definitions: readonly T[], text: string | null | undefined) =>
  text ? definitions.filter((d) => d.context.toLowerCase().includes(text.toLowerCase())) : [...definitions];

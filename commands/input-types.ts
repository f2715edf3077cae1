/**
 * Names the GraphQL type a zod input schema is served as (an input object, an enum, or a scalar such
 * as UUID or Decimal). The zod schema is then the one definition of a mutation's input: validation
 * runs on it and api/graphql/input-sdl.ts generates the SDL input types from it.
 */
import { z } from 'zod';

const NAMES = new WeakMap<z.ZodType, string>();

export function named<T extends z.ZodType>(name: string, schema: T): T {
  NAMES.set(schema, name);
  return schema;
}

export const typeNameOf = (schema: z.ZodType): string | undefined => NAMES.get(schema);

/** Scalars of the SDL, named once so every input uses the same ones. */
export const gql = {
  // Lower case: ids are compared as text in the aggregates, and reads already take any case (PostgreSQL's uuid).
  uuid: named('UUID', z.uuid().transform((id) => id.toLowerCase())),
  decimal: named('Decimal', z.union([z.string().max(40), z.number()])),
  int: named('Int', z.int()),
  enumOf: <const T extends readonly [string, ...string[]]>(name: string, values: T) => named(name, z.enum(values)),
};

/**
 * The SDL's custom scalars. UUID, DateTime and JSON pass values through (the commands' zod schemas and the
 * query builder validate them where they are used); Decimal is checked here, for every input that has one
 * (mutation fields and list filters alike), so an amount is never read inexactly.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { DecimalInputError, decimalText } from '../../commands/input-types.ts';

const passthrough = (name: string, description: string) =>
  new GraphQLScalarType({ name, description, serialize: (v) => v, parseValue: (v) => v, parseLiteral: (ast) => ('value' in ast ? ast.value : null) });

function decimalInput(value: unknown): string {
  try {
    return decimalText(value);
  } catch (e) {
    if (e instanceof DecimalInputError) throw new GraphQLError(e.message, { extensions: { code: e.code } });
    throw e;
  }
}

const DecimalScalar = new GraphQLScalarType({
  name: 'Decimal',
  serialize: (v) => (v === null || v === undefined ? null : String(v)),
  parseValue: decimalInput,
  // A literal keeps its source text, so 99999999999999.99 written in the query is exact.
  parseLiteral: (ast: ValueNode) => decimalInput(ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT ? ast.value : undefined),
});

export const SCALAR_RESOLVERS = {
  UUID: passthrough('UUID', 'UUID'),
  DateTime: passthrough('DateTime', 'ISO 8601'),
  JSON: passthrough('JSON', 'JSON'),
  Decimal: DecimalScalar,
};

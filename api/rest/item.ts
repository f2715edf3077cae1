/**
 * A resource's REST item (spec 8.2): `id`, `displayed_as`, `$path` and its stored fields in snake_case.
 * The item and its JSON schema come from the same list of fields, so the document cannot drift from the answers.
 */
import type { Row } from '../graphql/query-builder.ts';
import { storedFields, type Resource, type RestCollection, type Scalar, type StoredField } from '../../projections/engine/resource.ts';

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The stored fields a REST item shows, by their REST name. */
function itemFields(resource: Resource): Array<[string, StoredField]> {
  return storedFields(resource).filter((x) => x.rest !== false && x.name !== 'id' && !x.hidden).map((x) => [snake(x.name), x]);
}

export function restItem(resource: Resource, rest: RestCollection, node: Row): Row {
  const item: Row = { id: node.id, displayed_as: rest.displayedAs(node), $path: `${rest.path}/${node.id}` };
  for (const [name, x] of itemFields(resource)) item[name] = node[x.name];
  return item;
}

/** How each scalar reaches JSON: amounts as decimal strings (never floats), times as ISO 8601 strings. */
const JSON_TYPE: Record<Scalar, Record<string, unknown>> = {
  UUID: { type: 'string', format: 'uuid' },
  String: { type: 'string' },
  Int: { type: 'integer' },
  Boolean: { type: 'boolean' },
  Decimal: { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$', description: 'A decimal number in plain notation, as a string (exact).' },
  DateTime: { type: 'string', format: 'date-time' },
  // (A date column is read back as a timestamp at midnight, toNode's ISO string.)
  Date: { type: 'string', format: 'date-time' },
};

function fieldSchema(x: StoredField): Record<string, unknown> {
  const base = JSON_TYPE[x.scalar];
  if (x.enumValues) return { type: x.nonNull ? 'string' : ['string', 'null'], enum: x.nonNull ? [...x.enumValues] : [...x.enumValues, null] };
  return x.nonNull ? { ...base } : { ...base, type: [base.type, 'null'] };
}

export function restItemSchema(resource: Resource, rest: RestCollection) {
  const fields = itemFields(resource);
  return {
    type: 'object',
    title: resource.typeName,
    additionalProperties: false,
    required: ['id', 'displayed_as', '$path', ...fields.map(([name]) => name)],
    properties: {
      id: { type: 'string', format: 'uuid' },
      displayed_as: { type: 'string' },
      $path: { type: 'string', description: `${rest.path}/<id>` },
      ...Object.fromEntries(fields.map(([name, x]) => [name, fieldSchema(x)])),
    },
  };
}

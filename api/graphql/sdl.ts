/**
 * The whole SDL: scalars, directives, enumerations, the generated resource types with their filter,
 * sort and connection types, the spec's other types, and the mutations with their directives. Every
 * object field then gets `@cost(weight: "10")` and every connection `@listSize`, in one pass.
 */
import fs from 'node:fs';
import { Kind, parse, print, visit, type ConstDirectiveNode, type DocumentNode } from 'graphql';
import { MODULES, QUERIES, RESOURCES } from '../../modules/index.ts';
import { storedField, storedFields, type ChildrenField, type EmbeddedField, type Field, type ReferenceField, type Resource, type StoredField } from '../../projections/engine/resource.ts';
import { RELATION_FILTER_WEIGHT } from './relation-filters.ts';
import { AGGREGATE_LIMITS, AGGREGATE_RESULT_TYPE } from './aggregate.ts';
import { MUTATIONS, mutationTypesSdl } from './mutations.ts';
import { ORGANIZATION_ENUMS, Organization } from './organizations.ts';
import { SAGE_ROOTS_SDL, SAGE_ROOT_FIELDS } from './sage-roots.ts';
import { PRODUCT_PRICE_ROOT_FIELDS, PRODUCT_PRICE_SDL } from './product-price.ts';
import { SETUP_ENUMS, SETUP_ROOT_FIELDS, SETUP_SDL } from './setup.ts';
import { USER_ACCESS_ROOT_FIELDS, USER_ACCESS_SDL, User } from './users.ts';

/** The module list's resources, Sage's Organization (a view of the organisations read model) and User (of the identity store). */
export const GRAPHQL_RESOURCES: Resource[] = [...RESOURCES, Organization, User];

/** Every enumeration of the schema, by name (`localizedEnumValues` answers these). */
export const ENUMS: Record<string, readonly string[]> = Object.assign({}, ...MODULES.map((m) => m.enums), ORGANIZATION_ENUMS, SETUP_ENUMS);

const BASE_SDL = `
scalar UUID
scalar DateTime
"Exact decimal, serialized as a string so no cent is lost to binary floating point; accepts strings, or JSON numbers of at most 15 significant digits (longer ones may have been rounded: send them as strings)."
scalar Decimal
scalar JSON

enum AccessFilter { NO_FILTER DE_FORBIDDEN }
enum SortEnumType { ASC DESC }

directive @authorize(policy: String) on OBJECT | FIELD_DEFINITION
directive @feature(code: String!, operation: String!, filter: AccessFilter) on FIELD_DEFINITION
directive @accessControl(name: String!, resource: String!, action: String!, operation: String!, filter: AccessFilter) on FIELD_DEFINITION
directive @cost(weight: String!) on OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM | SCALAR
directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION

type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

input StringOperationFilterInput { and: [StringOperationFilterInput!] or: [StringOperationFilterInput!] eq: String neq: String contains: String ncontains: String in: [String] nin: [String] startsWith: String nstartsWith: String endsWith: String nendsWith: String }
input BooleanOperationFilterInput { eq: Boolean neq: Boolean }
${['Uuid:UUID', 'Int:Int', 'Decimal:Decimal', 'DateTime:DateTime']
  .map((pair) => {
    const [name, type] = pair.split(':');
    return `input ${name}OperationFilterInput { eq: ${type} neq: ${type} in: [${type}] nin: [${type}] gt: ${type} ngt: ${type} gte: ${type} ngte: ${type} lt: ${type} nlt: ${type} lte: ${type} nlte: ${type} }`;
  })
  .join('\n')}
`;

function enumSdl(name: string, values: readonly string[]): string {
  return `enum ${name} { ${values.join(' ')} }\ninput ${name}OperationFilterInput { eq: ${name} neq: ${name} in: [${name}!] nin: [${name}!] }`;
}

function filterInputType(x: StoredField): string {
  if (x.enumValues) return `${x.gql}OperationFilterInput`;
  return { UUID: 'UuidOperationFilterInput', String: 'StringOperationFilterInput', Int: 'IntOperationFilterInput', Boolean: 'BooleanOperationFilterInput', Decimal: 'DecimalOperationFilterInput', DateTime: 'DateTimeOperationFilterInput', Date: 'DateTimeOperationFilterInput' }[x.scalar];
}

/** Types some resource holds a list of: each gets the list filter input once. */
const CHILD_TYPES = new Set(GRAPHQL_RESOURCES.flatMap((r) => r.fields.flatMap((x) => (x.kind === 'children' ? [x.resource().typeName] : []))));

/** HotChocolate's name of the input filtering a list of `typeName` objects (`some`, `all`, `none`, `any`). */
export const listFilterInputName = (typeName: string) => `ListFilterInputTypeOf${typeName}FilterInput`;

/** A resource's <Type>SortInput fields: its visible stored fields, and its references by their SortInput. */
function sortFieldsSdl(r: Resource): string[] {
  const sortable = storedFields(r).filter((x) => !x.hidden).map((x) => `  ${x.name}: SortEnumType`);
  const references = r.fields.filter((x): x is ReferenceField => x.kind === 'reference');
  return [...sortable, ...references.map((x) => `  ${x.name}: ${x.resource().typeName}SortInput @cost(weight: "${RELATION_FILTER_WEIGHT}")`)];
}

/**
 * A resource's <Type>FilterInput and <Type>SortInput, for every resource (a referenced or child one is filtered
 * through its parent even without a root of its own): stored fields by operators, a reference field by the
 * referenced type's FilterInput (and SortInput), a children field by the list filter over the child's. A relation
 * weighs like a field in the cost analysis (`@cost` on the input field), so a deep filter is never free.
 */
function filterSortSdl(r: Resource): string[] {
  const filterable = storedFields(r).filter((x) => !x.hidden);
  const references = r.fields.filter((x): x is ReferenceField => x.kind === 'reference');
  const children = r.fields.filter((x): x is ChildrenField => x.kind === 'children');
  const embedded = r.fields.filter((x): x is EmbeddedField => x.kind === 'embedded');
  const relation = (name: string, type: string) => `  ${name}: ${type} @cost(weight: "${RELATION_FILTER_WEIGHT}")`;
  const filterFields = [
    ...filterable.map((x) => `  ${x.name}: ${filterInputType(x)}`),
    ...references.map((x) => relation(x.name, `${x.resource().typeName}FilterInput`)),
    ...children.map((x) => relation(x.name, listFilterInputName(x.resource().typeName))),
    ...embedded.map((x) => `  ${x.name}: ${x.gql}FilterInput`),
  ];
  const sortFields = sortFieldsSdl(r);
  const type = r.typeName;
  return [
    `input ${type}FilterInput {\n  and: [${type}FilterInput!]\n  or: [${type}FilterInput!]\n${filterFields.join('\n')}\n}`,
    `input ${type}SortInput {\n${sortFields.join('\n')}\n}`,
    ...(CHILD_TYPES.has(type) ? [`input ${listFilterInputName(type)} {\n  all: ${type}FilterInput\n  none: ${type}FilterInput\n  some: ${type}FilterInput\n  any: Boolean\n}`] : []),
    // An embedded object filters by the stored fields it is kept in.
    ...embedded.map((x) => `input ${x.gql}FilterInput {\n${Object.entries(x.filterBy).map(([name, stored]) => `  ${name}: ${filterInputType(storedField(r, stored))}`).join('\n')}\n}`),
    // A list's `order` argument by the spec's name: the child's sort fields.
    ...children.filter((x) => x.orderInput).map((x) => `input ${x.orderInput} {\n${sortFieldsSdl(x.resource()).join('\n')}\n}`),
  ];
}

/** Sage's aggregation on every connection (aggregate.ts): priced per group it may answer (cost.ts). */
const AGGREGATE_FIELD = `aggregate(aggregateFields: [String], groupFields: [String], orderFields: [String]): [${AGGREGATE_RESULT_TYPE}!]! @listSize(assumedSize: ${AGGREGATE_LIMITS.maxGroups}, requireOneSlicingArgument: false)`;

/** The arguments a field declares: an absent field's spec arguments, a list's `order`. */
const fieldArgs = (x: Field): string => (x.kind === 'absent' ? (x.args ?? '') : x.kind === 'children' && x.orderInput ? `(order: [${x.orderInput}!])` : '');

function resourceSdl(r: Resource): string {
  const fields = r.fields
    .filter((x) => !(x.kind === 'stored' && x.hidden))
    .map((x) => `  ${x.name}${fieldArgs(x)}: ${x.gql}${x.kind === 'stored' && x.nonNull ? '!' : ''}`);
  const lines = [`type ${r.typeName} {\n${fields.join('\n')}\n}`, ...filterSortSdl(r)];
  if (r.query) {
    const plural = r.query.connection.replace(/Connection$/, '');
    lines.push(
      `type ${r.query.connection} {\n  edges: [${plural}Edge!]\n  nodes: [${r.typeName}!]\n  pageInfo: PageInfo!\n  totalCount: Int!\n  ${AGGREGATE_FIELD}\n}`,
      `type ${plural}Edge {\n  cursor: String!\n  node: ${r.typeName}!\n}`,
    );
  }
  return lines.join('\n');
}

function queryRootSdl(resources: Resource[]): string {
  const fields = resources
    .filter((r) => r.query)
    .map((r) => `  ${r.query!.field}(first: Int, after: String, last: Int, before: String, where: ${r.typeName}FilterInput, order: [${r.typeName}SortInput!]): ${r.query!.connection} @listSize(assumedSize: 50, slicingArguments: ["first", "last"])`);
  // Sage's reads of one object declare `$id: ID!` (fact sheet 1.3): the node, or null outside the caller's organisation.
  const byIds = resources.filter((r) => r.query?.byId).map((r) => `  ${r.query!.byId}(id: ID!): ${r.typeName}`);
  return `type Query {\n${[...fields, ...byIds].join('\n')}${SAGE_ROOT_FIELDS}${PRODUCT_PRICE_ROOT_FIELDS}${SETUP_ROOT_FIELDS}${USER_ACCESS_ROOT_FIELDS}${QUERIES.map((q) => q.rootFields).join('')}\n}`;
}

const capitalised = (name: string) => name[0].toUpperCase() + name.slice(1);

function mutationRootSdl(): string {
  const fields = MUTATIONS.map((m) => {
    const op = capitalised(m.name);
    return `  ${m.name}(input: ${m.input}!): ${m.output} @authorize(policy: "PublicApi:data:write") @feature(code: "${m.feature}", operation: "${op}", filter: ${m.filter}) @accessControl(name: "${m.accessControl.name}", resource: "${m.accessControl.resource}", action: "${m.accessControl.action}", operation: "${op}", filter: ${m.filter}) @cost(weight: "10")`;
  });
  return `type Mutation {\n${fields.join('\n')}\n}`;
}

const specTypes = () => fs.readFileSync(new URL('./spec-types.graphql', import.meta.url), 'utf8');

const COST: ConstDirectiveNode = {
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: 'cost' },
  arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'weight' }, value: { kind: Kind.STRING, value: '10' } }],
};

/** Every field of every object type weighs 10, as the spec says: added here once, not typed per field. */
function withCosts(doc: DocumentNode): DocumentNode {
  return visit(doc, {
    FieldDefinition(node) {
      if (node.directives?.some((d) => d.name.value === 'cost')) return undefined;
      return { ...node, directives: [...(node.directives ?? []), COST] };
    },
  });
}

export function buildSdl(): string {
  const sdl = [
    BASE_SDL,
    ...Object.entries(ENUMS).map(([name, values]) => enumSdl(name, values)),
    ...GRAPHQL_RESOURCES.map(resourceSdl),
    specTypes(),
    SAGE_ROOTS_SDL,
    PRODUCT_PRICE_SDL,
    SETUP_SDL,
    USER_ACCESS_SDL,
    ...QUERIES.map((q) => q.sdl),
    mutationTypesSdl(),
    queryRootSdl(GRAPHQL_RESOURCES),
    mutationRootSdl(),
  ].join('\n\n');
  return print(withCosts(parse(sdl)));
}

/**
 * Static cost analysis of a GraphQL operation, before execution, in the manner of HotChocolate's cost
 * analysis (the IBM GraphQL cost specification, https://ibm.github.io/graphql-specs/cost-spec.html).
 *
 * Formula, per selected field `f` (after merging fields of one response name, as execution does):
 *
 *   fieldCost(f) = max(0, weight(f) + Σ weight(argument given)) + size(f) × Σ fieldCost(children of f)
 *   typeCost(f)  = size(f) × (typeWeight(type of f) + Σ typeCost(children of f))
 *   operation: fieldCost = Σ fieldCost(root fields), typeCost = typeWeight(root type) + Σ typeCost(root fields)
 *   total = fieldCost (typeCost is reported for information; the budget applies to fieldCost)
 *
 * - weight(f): the field's `@cost(weight: "…")`; without one, 10 for a field of object/interface/union type
 *   and 0 for a scalar/enum field. (The service's SDL gives every field `@cost(weight: "10")`.)
 * - weight(argument given): its definition's `@cost`, plus the `@cost` of every input field its value (literal or
 *   variable) uses at any depth: a filter or sort through a related object or list weighs 10 per relation.
 * - typeWeight(T): `@cost` on the type; without one, 1 for object/interface/union types, 0 for leaves. So
 *   typeCost counts the object values the response may hold, the root object included.
 * - size(f) is 1 unless f returns a list; for a list field it is
 *     - the connection's size when f is one of the connection's sized fields (below);
 *     - else, with `@listSize` on f: the largest slicing argument given (literal or variable, a
 *       non-negative integer), otherwise its `assumedSize`;
 *     - else DEFAULT_LIST_SIZE (10), e.g. `accountingEntryLines: [AccountingEntryLine]` on an entry;
 *     - but 1 for a connection's `aggregate` without groupFields (one group).
 * - Connections: a field whose type's name ends with `Connection` is not itself a list; its size (computed
 *   as above from its own `@listSize`, or from `first`/`last` and DEFAULT_LIST_SIZE without one) multiplies
 *   its sized fields: `@listSize(sizedFields: …)` when declared, otherwise `edges` and `nodes`. A `where` naming
 *   the rows by id (`id: { eq }`: 1, `id: { in: [...] }`: as many as listed) caps that size: ids are unique.
 *   `pageInfo` and `totalCount` are counted once.
 * - Fragments (named and inline) expand where they are spread, with their type condition honoured (for an
 *   abstract type, the costliest possible type counts); `@skip`/`@include` are not evaluated (counted as
 *   included). Introspection (`__schema`, `__type`, `__typename`) costs 0 and adds no depth.
 * - depth: the deepest field nesting (a root field is at depth 1); aliases: the number of response keys
 *   that differ from their field's name (`a: id`; `id: id` is harmless and not counted) in the expanded
 *   operation, fragments included, `__typename` included, not multiplied by list sizes.
 *
 * Guards: fragment cycles are cut (a spread of a fragment already being expanded is ignored), all sums and
 * products saturate at Number.MAX_SAFE_INTEGER, and an operation whose expansion visits more than
 * MAX_FIELD_VISITS fields or nests deeper than MAX_NESTING is given the saturated cost (so it is refused).
 * A document whose operation cannot be chosen (unknown or ambiguous operationName) costs 0: execution
 * reports that error itself.
 */
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isInputObjectType,
  isListType,
  isObjectType,
  valueFromASTUntyped,
  type ArgumentNode,
  type ConstDirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { AGGREGATE_RESULT_TYPE } from './aggregate.ts';

export interface CostLimits {
  maxCost: number;
  maxDepth: number;
  maxAliases: number;
}

export const DEFAULT_COST_LIMITS: CostLimits = { maxCost: 400_000, maxDepth: 12, maxAliases: 30 };

export interface OperationCost {
  fieldCost: number;
  typeCost: number;
  total: number;
  depth: number;
  aliases: number;
}

/** List size of a list field without `@listSize` (and of a connection without one, absent first/last). */
export const DEFAULT_LIST_SIZE = 10;
/** Weight of a field without `@cost`: composite-typed fields. Leaf fields without `@cost` weigh 0. */
export const DEFAULT_COMPOSITE_FIELD_WEIGHT = 10;
/** Work cap: fields visited while expanding one operation before it is declared unaffordable. */
export const MAX_FIELD_VISITS = 100_000;
/** Nesting cap: field nesting past this is not followed; the operation is declared unaffordable. */
export const MAX_NESTING = 256;

const MAX = Number.MAX_SAFE_INTEGER;
const add = (a: number, b: number) => Math.min(a + b, MAX);
const mul = (a: number, b: number) => (a === 0 || b === 0 ? 0 : Math.min(a * b, MAX));

// ---------------------------------------------------------------------------------------------------------
// Directive reading (cached per schema element)

interface ListSizeSpec {
  assumedSize: number | null;
  slicingArguments: string[];
  sizedFields: string[] | null;
}

function directive(directives: readonly ConstDirectiveNode[] | undefined, name: string): ConstDirectiveNode | undefined {
  return directives?.find((d) => d.name.value === name);
}

function argValue(d: ConstDirectiveNode, name: string): ValueNode | undefined {
  return d.arguments?.find((a) => a.name.value === name)?.value;
}

/** `@cost(weight:)` as a finite number, or null when absent or unreadable. */
function costWeight(directives: readonly ConstDirectiveNode[] | undefined): number | null {
  const d = directive(directives, 'cost');
  const v = d && argValue(d, 'weight');
  if (!v || (v.kind !== Kind.STRING && v.kind !== Kind.INT && v.kind !== Kind.FLOAT)) return null;
  const n = Number(v.value);
  return Number.isFinite(n) ? n : null;
}

function stringList(v: ValueNode | undefined): string[] | null {
  if (!v) return null;
  if (v.kind === Kind.STRING) return [v.value];
  if (v.kind !== Kind.LIST) return null;
  return v.values.flatMap((x) => (x.kind === Kind.STRING ? [x.value] : []));
}

const fieldWeights = new WeakMap<GraphQLField<unknown, unknown>, number>();
function fieldWeight(field: GraphQLField<unknown, unknown>): number {
  let w = fieldWeights.get(field);
  if (w === undefined) {
    w = costWeight(field.astNode?.directives) ?? (isCompositeType(getNamedType(field.type)) ? DEFAULT_COMPOSITE_FIELD_WEIGHT : 0);
    fieldWeights.set(field, w);
  }
  return w;
}

const typeWeights = new WeakMap<GraphQLNamedType, number>();
function typeWeight(type: GraphQLNamedType): number {
  let w = typeWeights.get(type);
  if (w === undefined) {
    w = costWeight(type.astNode?.directives) ?? (isCompositeType(type) ? 1 : 0);
    typeWeights.set(type, w);
  }
  return w;
}

const listSizes = new WeakMap<GraphQLField<unknown, unknown>, ListSizeSpec | null>();
function listSizeSpec(field: GraphQLField<unknown, unknown>): ListSizeSpec | null {
  if (listSizes.has(field)) return listSizes.get(field)!;
  const d = directive(field.astNode?.directives, 'listSize');
  let spec: ListSizeSpec | null = null;
  if (d) {
    const assumed = argValue(d, 'assumedSize');
    spec = {
      assumedSize: assumed?.kind === Kind.INT ? Number(assumed.value) : null,
      slicingArguments: stringList(argValue(d, 'slicingArguments')) ?? [],
      sizedFields: stringList(argValue(d, 'sizedFields')),
    };
  }
  listSizes.set(field, spec);
  return spec;
}

const argumentWeights = new WeakMap<GraphQLField<unknown, unknown>, Map<string, number>>();
/** Sum of `@cost` weights of the argument definitions the field node uses (none in this service's SDL). */
function argumentsWeight(field: GraphQLField<unknown, unknown>, node: FieldNode): number {
  let weights = argumentWeights.get(field);
  if (!weights) {
    weights = new Map();
    for (const a of field.args) {
      const w = costWeight(a.astNode?.directives);
      if (w !== null) weights.set(a.name, w);
    }
    argumentWeights.set(field, weights);
  }
  if (weights.size === 0 || !node.arguments) return 0;
  let sum = 0;
  for (const a of node.arguments) sum += weights.get(a.name.value) ?? 0;
  return sum;
}

/**
 * Sum of the `@cost` weights of the input fields an argument value uses, at any depth (a filter or sort through
 * related objects: each relation weighs like a field). Values come from literals or variables; a list position
 * also takes a single value (list coercion). The walk shares the operation's visit budget and nesting cap.
 */
function inputWeight(ctx: Context, type: GraphQLInputType, value: unknown, level: number): number {
  if (value === null || value === undefined || ctx.saturated) return 0;
  if (++ctx.visits > MAX_FIELD_VISITS || level > MAX_NESTING) {
    ctx.saturated = true;
    return 0;
  }
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const items = Array.isArray(value) ? value : [value];
    return items.reduce<number>((sum, item) => add(sum, inputWeight(ctx, nullable.ofType, item, level + 1)), 0);
  }
  if (!isInputObjectType(nullable) || typeof value !== 'object' || Array.isArray(value)) return 0;
  const fields = nullable.getFields();
  let sum = 0;
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    const field = fields[name];
    if (!field || v === null || v === undefined) continue;
    sum = add(sum, add(costWeight(field.astNode?.directives) ?? 0, inputWeight(ctx, field.type, v, level + 1)));
  }
  return sum;
}

/** What a field node's arguments weigh through the input fields their values use. */
function argumentValuesWeight(ctx: Context, field: GraphQLField<unknown, unknown>, node: FieldNode): number {
  let sum = 0;
  for (const a of node.arguments ?? []) {
    const definition = field.args.find((x) => x.name === a.name.value);
    if (definition && isInputObjectType(getNamedType(definition.type))) sum = add(sum, inputWeight(ctx, definition.type, argumentValue(ctx, [a], a.name.value), 1));
  }
  return sum;
}

// ---------------------------------------------------------------------------------------------------------
// Analysis

interface Context {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
  visits: number;
  saturated: boolean;
}

interface Totals {
  fieldCost: number;
  typeCost: number;
  /** deepest field level reached below (or at) this selection; the caller's level when it holds no field */
  depth: number;
  aliases: number;
}

/** A selection set to expand, with the fragments enclosing it (for cycle detection). */
interface Pending {
  selectionSet: SelectionSetNode;
  ancestors: ReadonlySet<string>;
}

interface Collected {
  nodes: FieldNode[];
  subselections: Pending[];
}

interface Sized {
  names: ReadonlySet<string>;
  size: number;
}

const isConnectionType = (t: GraphQLNamedType) => t.name.endsWith('Connection');
const CONNECTION_SIZED_FIELDS: ReadonlySet<string> = new Set(['edges', 'nodes']);
const CONNECTION_SLICING_ARGUMENTS = ['first', 'last'];

function typeApplies(ctx: Context, typeCondition: string | undefined, runtime: GraphQLObjectType): boolean {
  if (!typeCondition || typeCondition === runtime.name) return true;
  const t = ctx.schema.getType(typeCondition);
  return !!t && isAbstractType(t) && ctx.schema.isSubType(t, runtime);
}

/** Groups the fields selected on `runtime` by response key, expanding fragments, as execution does. */
function collectFields(ctx: Context, runtime: GraphQLObjectType, sets: readonly Pending[]): Map<string, Collected> {
  const out = new Map<string, Collected>();
  const visited = new Set<string>();
  const walk = (selectionSet: SelectionSetNode, ancestors: ReadonlySet<string>) => {
    for (const sel of selectionSet.selections) {
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        let entry = out.get(key);
        if (!entry) out.set(key, (entry = { nodes: [], subselections: [] }));
        entry.nodes.push(sel);
        if (sel.selectionSet) entry.subselections.push({ selectionSet: sel.selectionSet, ancestors });
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        if (typeApplies(ctx, sel.typeCondition?.name.value, runtime)) walk(sel.selectionSet, ancestors);
      } else {
        const name = sel.name.value;
        if (visited.has(name) || ancestors.has(name)) continue; // repeated spread, or a cycle
        const fragment = ctx.fragments.get(name);
        if (!fragment || !typeApplies(ctx, fragment.typeCondition.name.value, runtime)) continue;
        visited.add(name);
        walk(fragment.selectionSet, new Set(ancestors).add(name));
      }
    }
  };
  for (const p of sets) walk(p.selectionSet, p.ancestors);
  return out;
}

/** Value of an argument of a field node: literal, or variable (its value, else its default). */
function argumentValue(ctx: Context, args: readonly ArgumentNode[] | undefined, name: string): unknown {
  const node = args?.find((a) => a.name.value === name)?.value;
  if (!node) return undefined;
  if (node.kind === Kind.VARIABLE) {
    const v = ctx.variables[node.name.value];
    if (v !== undefined) return v;
    const def = ctx.operation.variableDefinitions?.find((d) => d.variable.name.value === node.name.value);
    return def?.defaultValue ? valueFromASTUntyped(def.defaultValue) : undefined;
  }
  return valueFromASTUntyped(node, ctx.variables);
}

/** The list size a field node asks for: largest slicing argument given, else the assumed size. */
function listSize(ctx: Context, nodes: readonly FieldNode[], slicing: readonly string[], assumed: number): number {
  let size: number | null = null;
  for (const node of nodes) {
    for (const name of slicing) {
      const v = argumentValue(ctx, node.arguments, name);
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0) size = Math.max(size ?? 0, Math.min(v, MAX));
    }
  }
  return size ?? assumed;
}

/**
 * How many rows a connection's `where` can match at most because it names them by id: `id: { eq }` one,
 * `id: { in: [...] }` as many as listed (ids are unique); unbounded (MAX) when it names none.
 */
function rowsNamedById(ctx: Context, nodes: readonly FieldNode[]): number {
  let bound = 0;
  for (const node of nodes) {
    const where = argumentValue(ctx, node.arguments, 'where') as { id?: unknown } | null | undefined;
    const id = where && typeof where === 'object' ? where.id : undefined;
    if (!id || typeof id !== 'object') return MAX;
    const { eq, in: among } = id as { eq?: unknown; in?: unknown };
    // (A single value sent for `in` is coerced to a list of one.)
    const rows = eq !== undefined && eq !== null ? 1 : Array.isArray(among) ? among.length : among !== undefined && among !== null ? 1 : MAX;
    bound = Math.max(bound, rows);
  }
  return bound;
}

/** A connection's `aggregate` without groupFields answers one group; grouped, as many as its `@listSize` says. */
function isUngroupedAggregate(ctx: Context, type: GraphQLNamedType, nodes: readonly FieldNode[]): boolean {
  if (type.name !== AGGREGATE_RESULT_TYPE) return false;
  return nodes.every((node) => {
    const groups = argumentValue(ctx, node.arguments, 'groupFields');
    return groups === undefined || groups === null || (Array.isArray(groups) && groups.length === 0);
  });
}

function selectionCost(ctx: Context, type: GraphQLCompositeType, sets: readonly Pending[], sized: Sized | null, level: number): Totals {
  if (isObjectType(type)) return objectSelectionCost(ctx, type, sets, sized, level);
  // Interface or union: the costliest possible type counts.
  const best: Totals = { fieldCost: 0, typeCost: 0, depth: level, aliases: 0 };
  for (const possible of ctx.schema.getPossibleTypes(type)) {
    const t = objectSelectionCost(ctx, possible, sets, sized, level);
    best.fieldCost = Math.max(best.fieldCost, t.fieldCost);
    best.typeCost = Math.max(best.typeCost, t.typeCost);
    best.depth = Math.max(best.depth, t.depth);
    best.aliases = Math.max(best.aliases, t.aliases);
  }
  return best;
}

function objectSelectionCost(ctx: Context, type: GraphQLObjectType, sets: readonly Pending[], sized: Sized | null, level: number): Totals {
  const totals: Totals = { fieldCost: 0, typeCost: 0, depth: level, aliases: 0 };
  if (ctx.saturated) return totals;
  const fields = type.getFields();
  for (const [key, { nodes, subselections }] of collectFields(ctx, type, sets)) {
    const name = nodes[0].name.value;
    if (key !== name) totals.aliases = add(totals.aliases, 1);
    if (name === '__typename' || name === '__schema' || name === '__type') continue;
    const field = fields[name] as GraphQLField<unknown, unknown> | undefined;
    if (!field) continue; // invalid document: validation reports it

    if (++ctx.visits > MAX_FIELD_VISITS || level + 1 > MAX_NESTING) {
      ctx.saturated = true;
      totals.depth = Math.max(totals.depth, level + 1);
      return totals;
    }

    const namedType = getNamedType(field.type);
    const spec = listSizeSpec(field);
    let multiplier = 1;
    let childSized: Sized | null = null;
    if (isListType(getNullableType(field.type))) {
      multiplier =
        sized && sized.names.has(name)
          ? sized.size
          : isUngroupedAggregate(ctx, namedType, nodes)
            ? 1
            : listSize(ctx, nodes, spec?.slicingArguments ?? [], spec?.assumedSize ?? DEFAULT_LIST_SIZE);
    } else if (isConnectionType(namedType)) {
      const size = spec
        ? listSize(ctx, nodes, spec.slicingArguments, spec.assumedSize ?? DEFAULT_LIST_SIZE)
        : listSize(ctx, nodes, CONNECTION_SLICING_ARGUMENTS, DEFAULT_LIST_SIZE);
      childSized = { names: spec?.sizedFields ? new Set(spec.sizedFields) : CONNECTION_SIZED_FIELDS, size: Math.min(size, rowsNamedById(ctx, nodes)) };
    }

    let childFieldCost = 0;
    let childTypeCost = 0;
    let depth = level + 1;
    if (isCompositeType(namedType) && subselections.length > 0) {
      const child = selectionCost(ctx, namedType, subselections, childSized, level + 1);
      childFieldCost = child.fieldCost;
      childTypeCost = child.typeCost;
      depth = Math.max(depth, child.depth);
      totals.aliases = add(totals.aliases, child.aliases);
    }

    const own = Math.max(0, fieldWeight(field) + argumentsWeight(field, nodes[0]) + argumentValuesWeight(ctx, field, nodes[0]));
    totals.fieldCost = add(totals.fieldCost, add(own, mul(multiplier, childFieldCost)));
    totals.typeCost = add(totals.typeCost, mul(multiplier, add(typeWeight(namedType), childTypeCost)));
    totals.depth = Math.max(totals.depth, depth);
  }
  return totals;
}

function chooseOperation(document: DocumentNode, operationName: string | undefined): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operationName) return operations.find((o) => o.name?.value === operationName) ?? null;
  return operations.length === 1 ? operations[0] : null;
}

/** The cost, depth and alias count of the operation `operationName` (or the only one) of `document`. */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string,
): OperationCost {
  const operation = chooseOperation(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return { fieldCost: 0, typeCost: 0, total: 0, depth: 0, aliases: 0 };

  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION && !fragments.has(d.name.value)) fragments.set(d.name.value, d);
  }
  const ctx: Context = { schema, fragments, operation, variables: variables ?? {}, visits: 0, saturated: false };
  const t = objectSelectionCost(ctx, root, [{ selectionSet: operation.selectionSet, ancestors: new Set() }], null, 0);

  const fieldCost = ctx.saturated ? MAX : t.fieldCost;
  const typeCost = ctx.saturated ? MAX : add(typeWeight(root), t.typeCost);
  return { fieldCost, typeCost, total: fieldCost, depth: t.depth, aliases: t.aliases };
}

/**
 * null when within limits, else a GraphQLError with extensions { code: 'HC0047', fieldCost, typeCost,
 * maxFieldCost } (code 'HC0047' for cost; for depth 'MAX_DEPTH_EXCEEDED', for aliases 'MAX_ALIASES_EXCEEDED').
 * Checked in that order of cheapness: depth, aliases, then cost. A limit is exceeded when strictly above it.
 */
export function checkCost(cost: OperationCost, limits: CostLimits): GraphQLError | null {
  if (cost.depth > limits.maxDepth) {
    return new GraphQLError(
      `The GraphQL document has an execution depth of ${cost.depth} which exceeds the max allowed execution depth of ${limits.maxDepth}.`,
      { extensions: { code: 'MAX_DEPTH_EXCEEDED', depth: cost.depth, maxDepth: limits.maxDepth } },
    );
  }
  if (cost.aliases > limits.maxAliases) {
    return new GraphQLError(
      `The GraphQL document uses ${cost.aliases} aliases which exceeds the max allowed number of aliases of ${limits.maxAliases}.`,
      { extensions: { code: 'MAX_ALIASES_EXCEEDED', aliases: cost.aliases, maxAliases: limits.maxAliases } },
    );
  }
  if (cost.total > limits.maxCost) {
    return new GraphQLError('The maximum allowed field cost was exceeded.', {
      extensions: { code: 'HC0047', fieldCost: cost.fieldCost, typeCost: cost.typeCost, maxFieldCost: limits.maxCost },
    });
  }
  return null;
}

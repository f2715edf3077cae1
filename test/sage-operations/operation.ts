/**
 * One operation as a Sage Active client sends it (shared/research/sage-names.md): a named document with
 * `$values`/`$input` for mutation inputs, `$id: UUID!` in `where:{id:{eq}}` and `$id: ID!` on the by-id roots,
 * date-only DateTime strings and enum values as strings in the JSON variables.
 */
import assert from 'node:assert/strict';

/** What earlier operations returned (ids, numbers), by name; seeded with the organisation. */
export type Context = Record<string, string>;

export interface SageOperation {
  /** What it does, with the fact-sheet entries (pm-/hp-/s1- numbers, §) it follows. */
  name: string;
  query: string;
  variables?: (ctx: Context) => Record<string, unknown>;
  /** `bearerOnly`: sent with the bearer token and x-api-key alone, as Sage clients call the header-free roots (§1.1). */
  headers?: 'organisation' | 'bearerOnly';
  /** Checks the data did what the operation asked, and records ids later operations use. */
  expect(data: any, ctx: Context): void;
}

/** The nodes of a connection read as `edges { node }` (§1.4). */
export const nodesOf = (connection: { edges: { node: any }[] }) => connection.edges.map((e) => e.node);

/** The one node a `where:{id:{eq:$id}}` read returns. */
export function onlyNode(connection: { totalCount?: number; edges: { node: any }[] }) {
  assert.equal(connection.edges.length, 1, 'exactly one row');
  return connection.edges[0].node;
}

export { assert };

/**
 * `delete<Resource>(input: $values)` with `{id}` as Sage sends it (pm-053, 057, 102, 112, 119, 125, 128), then the
 * resource read by id (`$id: UUID!`, §1.3) finds no row.
 */
export function deletion(resource: string, root: string, idKey: string, source: string): SageOperation[] {
  return [
    {
      name: `delete${resource} (${source})`,
      query: `mutation delete${resource}($values: ${resource}DeleteGLDtoInput!) { delete${resource}(input: $values) { id } }`,
      variables: (ctx) => ({ values: { id: ctx[idKey] } }),
      expect(data, ctx) { assert.equal(data[`delete${resource}`].id, ctx[idKey]); },
    },
    {
      name: `the deleted ${resource} is gone from ${root}`,
      query: `query ${root}($id: UUID!) { ${root}(where: { id: { eq: $id } }) { totalCount } }`,
      variables: (ctx) => ({ id: ctx[idKey] }),
      expect(data) { assert.equal(data[root].totalCount, 0); },
    },
  ];
}

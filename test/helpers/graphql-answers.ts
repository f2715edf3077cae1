/** The two checks most API tests make of a GraphQL operation: it succeeds, or it is refused and changes nothing. */
import type { TAP } from 'tap';
import type { Running } from './service.ts';

/** `headers`: another organisation's client (its token and X-Site); the demo organisation's unless told. */
export function graphqlAnswers(api: Running, headers?: Record<string, string>) {
  /** The operation's data; its errors fail the test that sent it. */
  async function ok(query: string, variables?: object) {
    const r = await api.gql(query, variables, headers);
    if (r.errors) throw new Error(`${query.slice(0, 60)}: ${JSON.stringify(r.errors)}`);
    return r.data;
  }
  /** Refused with `code` as its first error (answered, for its message), with no event appended. */
  async function refused(t: Pick<TAP, 'equal'>, name: string, query: string, variables: object, code: string) {
    const before = await api.eventCount();
    const r = await api.gql(query, variables, headers);
    t.equal(r.errors?.[0]?.extensions?.code, code, `${name}: ${code}`);
    t.equal(await api.eventCount(), before, `${name}: nothing appended`);
    return r.errors?.[0];
  }
  return { ok, refused };
}

import t from 'tap';
import { buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { buildSdl } from '../api/graphql/sdl.ts';
import { DEFAULT_COST_LIMITS, checkCost, operationCost, type OperationCost } from '../api/graphql/cost.ts';

const schema = buildSchema(buildSdl());
const MAX = Number.MAX_SAFE_INTEGER;

/** Parses, checks the operation is valid against the real schema (so the costs are of real operations), costs it. */
function cost(source: string, variables?: Record<string, unknown>, operationName?: string): OperationCost {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`invalid test operation: ${errors.map((e) => e.message).join('; ')}`);
  return operationCost(schema, document, variables, operationName);
}

// Every field weighs 10. Connection sizes: first/last, else 50. Plain lists without @listSize: 10.

const LINES_QUERY = (args: string, head = '') => `${head} {
  accountingEntries${args} { nodes { accountingEntryLines { subAccount { code } } } }
}`;

t.test('a tiny query costs exactly what the formula says', async (t) => {
  const c = cost('{ accountingEntries(first: 2) { totalCount nodes { id } } }');
  // nodes            = 10 + 2 × (id 10)                 = 30
  // accountingEntries = 10 + (totalCount 10 + nodes 30)  = 50
  // typeCost: nodes 2 × 1 = 2; accountingEntries 1 + 2 = 3; + Query root 1 = 4
  t.same(c, { fieldCost: 50, typeCost: 4, total: 50, depth: 3, aliases: 0 });
  t.equal(checkCost(c, DEFAULT_COST_LIMITS), null);
});

t.test('first: 500 multiplies nodes, and a plain list field multiplies by 10', async (t) => {
  const c = cost(LINES_QUERY('(first: 500)'));
  // subAccount           = 10 + code 10                  = 20
  // accountingEntryLines = 10 + 10 × 20                  = 210      (no @listSize: default 10)
  // nodes                = 10 + 500 × 210                = 105,010  (sized by first: 500)
  // accountingEntries    = 10 + 105,010                  = 105,020
  // typeCost: subAccount 1; lines 10 × (1 + 1) = 20; nodes 500 × (1 + 20) = 10,500;
  //           accountingEntries 1 + 10,500 = 10,501; + Query 1 = 10,502
  t.same(c, { fieldCost: 105_020, typeCost: 10_502, total: 105_020, depth: 5, aliases: 0 });
  t.equal(checkCost(c, DEFAULT_COST_LIMITS), null, 'within the default budget');

  t.equal(cost(LINES_QUERY('(last: 500)')).total, 105_020, 'last is a slicing argument too');
  // both given: the larger one counts
  t.equal(cost(LINES_QUERY('(first: 3, last: 500)')).total, 105_020);
});

t.test('first as a variable', async (t) => {
  const q = LINES_QUERY('(first: $first)', 'query Q($first: Int)');
  t.equal(cost(q, { first: 500 }).total, 105_020, 'variable value');
  t.equal(cost(q, { first: 500 }).typeCost, 10_502);
  // nodes = 10 + 7 × 210 = 1,480; total 1,490
  t.equal(cost(q, { first: 7 }).total, 1_490);
  t.equal(cost(q, {}).total, 10_520, 'variable not given: assumedSize 50');
  t.equal(cost(q, { first: null }).total, 10_520, 'variable null: assumedSize 50');
  t.equal(cost(q, undefined).total, 10_520, 'no variables at all');

  const withDefault = LINES_QUERY('(first: $first)', 'query Q($first: Int = 500)');
  t.equal(cost(withDefault, {}).total, 105_020, 'the variable default applies');
  t.equal(cost(withDefault, { first: 7 }).total, 1_490, 'the given value wins over the default');
});

t.test('no slicing argument: assumedSize 50', async (t) => {
  const c = cost(LINES_QUERY(''));
  // nodes = 10 + 50 × 210 = 10,510; accountingEntries = 10,520
  // typeCost: nodes 50 × 21 = 1,050; accountingEntries 1,051; + Query 1 = 1,052
  t.same(c, { fieldCost: 10_520, typeCost: 1_052, total: 10_520, depth: 5, aliases: 0 });

  // edges are sized like nodes; pageInfo and totalCount count once
  // edges = 10 + 50 × (cursor 10 + node (10 + id 10)) = 10 + 50 × 30 = 1,510
  // pageInfo = 10 + hasNextPage 10 = 20; totalCount 10; connection = 10 + 1,510 + 20 + 10 = 1,550
  t.equal(cost('{ accountingEntries { edges { cursor node { id } } pageInfo { hasNextPage } totalCount } }').total, 1_550);

  // accountingPlanMasters: @listSize(assumedSize: 10), no slicing arguments
  // lines = 10 + 10 × code 10 = 110; masters = 10 + 10 × (description 10 + lines 110) = 1,210
  // typeCost: lines 10 × 1 = 10; masters 10 × (1 + 10) = 110; + Query 1 = 111
  const m = cost('{ accountingPlanMasters { description accountingPlanMasterLines { code } } }');
  t.same(m, { fieldCost: 1_210, typeCost: 111, total: 1_210, depth: 3, aliases: 0 });
});

/** accountingEntryLines { nodes { accountingEntry { accountingEntryLines { accountingEntry { … { id } } } } } } */
function deepQuery(depth: number): string {
  // levels: accountingEntryLines 1, nodes 2, then alternating accountingEntry / accountingEntryLines, then id
  let inner = 'id';
  let level = depth - 1; // the level of the field holding `id`
  const fields: string[] = [];
  while (level > 2) {
    fields.unshift(level % 2 === 1 ? 'accountingEntry' : 'accountingEntryLines');
    level--;
  }
  for (const f of fields.reverse()) inner = `${f} { ${inner} }`;
  return `{ accountingEntryLines(first: 1) { nodes { ${inner} } } }`;
}

t.test('depth', async (t) => {
  const ok = cost(deepQuery(12));
  t.equal(ok.depth, 12);
  t.not(checkCost(ok, DEFAULT_COST_LIMITS)?.extensions.code, 'MAX_DEPTH_EXCEEDED', 'depth 12 is allowed');

  const deep = cost(deepQuery(13));
  t.equal(deep.depth, 13);
  const err = checkCost(deep, DEFAULT_COST_LIMITS);
  t.equal(err?.extensions.code, 'MAX_DEPTH_EXCEEDED');
  t.equal(err?.extensions.depth, 13);
  t.equal(err?.extensions.maxDepth, 12);

  // inside out: lines(12) = 10 + 10 × id 10 = 110; entry(11) = 120; lines(10) = 10 + 10 × 120 = 1,210;
  // 1,220; 12,210; 12,220; 122,210; 122,220; lines(4) = 1,222,210; entry(3) = 1,222,220;
  // nodes = 10 + 1 × 1,222,220 = 1,222,230; accountingEntryLines(first: 1) = 1,222,240
  t.equal(deep.total, 1_222_240);
  t.equal(checkCost(deep, { ...DEFAULT_COST_LIMITS, maxDepth: 13 })?.extensions.code, 'HC0047', 'depth is checked before cost');
  t.equal(checkCost(deep, { maxCost: 1_222_240, maxDepth: 13, maxAliases: 30 }), null, 'the limits are configurable');
});

t.test('aliases', async (t) => {
  const aliased = (n: number) =>
    `{ ${Array.from({ length: n }, (_, i) => `a${i + 1}: accountingEntries(first: 1) { totalCount }`).join(' ')} }`;
  // each alias: accountingEntries 10 + totalCount 10 = 20
  const thirty = cost(aliased(30));
  t.same(thirty, { fieldCost: 600, typeCost: 31, total: 600, depth: 2, aliases: 30 });
  t.equal(checkCost(thirty, DEFAULT_COST_LIMITS), null, '30 aliases are allowed');

  const c = cost(aliased(31));
  t.equal(c.aliases, 31);
  t.equal(c.total, 620);
  const err = checkCost(c, DEFAULT_COST_LIMITS);
  t.equal(err?.extensions.code, 'MAX_ALIASES_EXCEEDED');
  t.equal(err?.extensions.aliases, 31);
  t.equal(err?.extensions.maxAliases, 30);

  t.equal(cost('{ x: __typename y: __typename }').aliases, 2, 'aliases of __typename count');
});

t.test('an operation over 400,000 is refused with HC0047', async (t) => {
  const q = (first: number) => `{
    accountingEntries(first: ${first}) {
      nodes { accountingEntryLines { id description debitAmount creditAmount order subAccount { code name } } }
    }
  }`;
  const c = cost(q(500));
  // subAccount           = 10 + 2 × 10                 = 30
  // accountingEntryLines = 10 + 10 × (5 × 10 + 30)     = 810
  // nodes                = 10 + 500 × 810              = 405,010
  // accountingEntries    = 10 + 405,010                = 405,020
  // typeCost: subAccount 1; lines 10 × 2 = 20; nodes 500 × 21 = 10,500; 1 + 10,500; + Query 1 = 10,502
  t.same(c, { fieldCost: 405_020, typeCost: 10_502, total: 405_020, depth: 5, aliases: 0 });

  const err = checkCost(c, DEFAULT_COST_LIMITS);
  t.ok(err, 'refused');
  t.equal(err!.extensions.code, 'HC0047');
  t.same(err!.extensions, { code: 'HC0047', fieldCost: 405_020, typeCost: 10_502, maxFieldCost: 400_000 });
  t.match(err!.message, /maximum allowed field cost/);

  // 10 + 10 + 493 × 810 = 399,350: just under
  const under = cost(q(493));
  t.equal(under.total, 399_350);
  t.equal(checkCost(under, DEFAULT_COST_LIMITS), null);

  // the budget is configurable; equal to the budget passes
  t.equal(checkCost(c, { ...DEFAULT_COST_LIMITS, maxCost: 405_020 }), null);
  t.equal(checkCost(c, { ...DEFAULT_COST_LIMITS, maxCost: 405_019 })?.extensions.maxFieldCost, 405_019);
});

t.test('introspection costs nothing', async (t) => {
  const c = cost(getIntrospectionQuery());
  // only the Query root object is counted in typeCost; introspection adds no field cost and no depth
  t.same(c, { fieldCost: 0, typeCost: 1, total: 0, depth: 0, aliases: 0 });
  t.equal(checkCost(c, DEFAULT_COST_LIMITS), null);

  t.same(cost('{ __type(name: "Query") { name fields { name } } __typename }'), { fieldCost: 0, typeCost: 1, total: 0, depth: 0, aliases: 0 });
  // __typename inside a selection is free too: 10 + (nodes 10 + 2 × (id 10)) = 40
  t.equal(cost('{ __typename accountingEntries(first: 2) { __typename nodes { __typename id } } }').total, 40);
});

t.test('fragments count the same as inline selections', async (t) => {
  const inline = cost(LINES_QUERY('(first: 500)'));

  const named = cost(`
    query { accountingEntries(first: 500) { ...Conn } }
    fragment Conn on AccountingEntriesConnection { nodes { ...Entry } }
    fragment Entry on AccountingEntry { accountingEntryLines { ...Line } }
    fragment Line on AccountingEntryLine { subAccount { code } }
  `);
  t.same(named, inline, 'named fragments');

  const inlineFragments = cost(`{
    accountingEntries(first: 500) { ... on AccountingEntriesConnection { nodes { ... { accountingEntryLines { ... on AccountingEntryLine { subAccount { code } } } } } } }
  }`);
  t.same(inlineFragments, inline, 'inline fragments, with and without a type condition');

  // the same field selected directly and through a fragment is merged, as execution does
  const merged = cost(`
    { accountingEntries(first: 2) { totalCount nodes { id } ...F ...F } }
    fragment F on AccountingEntriesConnection { nodes { id } totalCount }
  `);
  t.same(merged, cost('{ accountingEntries(first: 2) { totalCount nodes { id } } }'));
  t.equal(merged.total, 50);

  const withVariable = cost(
    `query Q($n: Int) { accountingEntries(first: $n) { ...C } } fragment C on AccountingEntriesConnection { nodes { accountingEntryLines { subAccount { code } } } }`,
    { n: 500 },
  );
  t.equal(withVariable.total, 105_020, 'slicing variable with the sized field in a fragment');
});

t.test('operationName picks one of several operations', async (t) => {
  const doc = `
    query Small { accountingEntries(first: 2) { totalCount nodes { id } } }
    query Big { accountingEntries(first: 500) { nodes { accountingEntryLines { subAccount { code } } } } }
  `;
  t.equal(cost(doc, undefined, 'Small').total, 50);
  t.equal(cost(doc, undefined, 'Big').total, 105_020);
  const none = { fieldCost: 0, typeCost: 0, total: 0, depth: 0, aliases: 0 };
  t.same(cost(doc), none, 'ambiguous: left to execution to refuse');
  t.same(cost(doc, undefined, 'Nope'), none, 'unknown name: left to execution to refuse');
  t.equal(cost('query Only { accountingEntries(first: 2) { totalCount } }').total, 20, 'a single operation needs no name');
});

t.test('mutations are costed on the Mutation type', async (t) => {
  const c = cost(`mutation($values: AccountingAccountCreateGLDtoInput!) {
    a: createAccountingAccount(input: $values) { id }
    b: createAccountingAccount(input: $values) { id }
  }`, { values: { code: '1', name: 'x' } });
  // each: createAccountingAccount 10 + id 10 = 20; typeCost: 2 × 1 + Mutation root 1 = 3
  t.same(c, { fieldCost: 40, typeCost: 3, total: 40, depth: 2, aliases: 2 });

  const doc = `
    query Q { accountingEntries(first: 2) { totalCount } }
    mutation M($values: AccountingAccountCreateGLDtoInput!) { createAccountingAccount(input: $values) { id } }
  `;
  t.equal(cost(doc, undefined, 'M').total, 20);
  t.equal(cost(doc, undefined, 'M').typeCost, 2);
});

t.test('pathological input', async (t) => {
  // a fragment cycle (invalid, so not validated here) terminates: the spread inside itself is cut
  const cyclic = operationCost(
    schema,
    parse(`
      { accountingEntries(first: 1) { nodes { ...A } } }
      fragment A on AccountingEntry { id accountingEntryLines { accountingEntry { ...A } } }
    `),
    undefined,
  );
  // accountingEntry = 10 (its spread of A is cut); lines = 10 + 10 × 10 = 110;
  // nodes = 10 + 1 × (id 10 + 110) = 130; accountingEntries = 140
  t.equal(cyclic.total, 140);
  t.equal(cyclic.depth, 4);

  // a huge slicing value saturates instead of overflowing
  const huge = cost(LINES_QUERY('(first: $n)', 'query Q($n: Int)'), { n: 1e300 });
  t.equal(huge.total, MAX);
  t.ok(Number.isSafeInteger(huge.total));
  t.equal(checkCost(huge, DEFAULT_COST_LIMITS)?.extensions.code, 'HC0047');

  // many multiplying lists saturate at MAX_SAFE_INTEGER too: 10 levels of ×10 under first: 2147483647
  let inner = 'id';
  for (let i = 0; i < 10; i++) inner = `accountingEntryLines { accountingEntry { ${inner} } }`;
  const lists = cost(`{ accountingEntries(first: 2147483647) { nodes { ${inner} } } }`);
  t.equal(lists.total, MAX);
  t.equal(lists.fieldCost, MAX);

  // fragments that double at each level (2^25 expansions) stop at the work cap and are refused, fast
  const levels = 25;
  const fragments = Array.from({ length: levels }, (_, i) =>
    i + 1 < levels
      ? `fragment F${i} on AccountingEntryLine { a: accountingEntry { accountingEntryLines { ...F${i + 1} } } b: accountingEntry { accountingEntryLines { ...F${i + 1} } } }`
      : `fragment F${i} on AccountingEntryLine { id }`,
  ).join('\n');
  const started = Date.now();
  const bomb = operationCost(schema, parse(`{ accountingEntryLines(first: 1) { nodes { ...F0 } } }\n${fragments}`), undefined);
  t.ok(Date.now() - started < 2_000, `bounded work (${Date.now() - started} ms)`);
  t.equal(bomb.total, MAX);
  t.equal(bomb.typeCost, MAX);
  t.ok(checkCost(bomb, { maxCost: MAX - 1, maxDepth: 1_000, maxAliases: 1_000_000 }), 'refused on cost');
});

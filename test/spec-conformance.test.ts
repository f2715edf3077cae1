/**
 * The SDL against the spec text itself: every object type the spec's sections 2.2-2.4 and 2.6 list, with
 * every field and its exact type; every mutation of the spec's table we serve, with its directives.
 */
import fs from 'node:fs';
import { buildSchema, isObjectType, type GraphQLSchema } from 'graphql';
import t from 'tap';
import { buildSdl } from '../api/graphql/sdl.ts';

// A pinned copy of ../shared/spec/service-interface.md travels with the repository, so the check runs
// wherever the clone is; where the shared original is present it must be identical to the copy.
const PINNED = new URL('../docs/spec/service-interface.md', import.meta.url);
const SHARED = new URL('../../shared/spec/service-interface.md', import.meta.url);
const spec = fs.readFileSync(PINNED, 'utf8');
if (fs.existsSync(SHARED)) t.equal(fs.readFileSync(SHARED, 'utf8'), spec, 'docs/spec is the current spec');
const sdl = buildSdl();
const schema: GraphQLSchema = buildSchema(sdl);

/**
 * Type lines of one section -> { Name: { field: 'Type' } }. Handles several types per line
 * ("**A**: a:T. **B**: b:U."), pairs ("**A** and **B** (same shape): ...", "**A**, **B**: ..."),
 * "x, y (all Decimal!)", and "same fields as A without x and y, with z:T" (A from an earlier line).
 */
function specTypes(section: string): Map<string, Map<string, string>> {
  const types = new Map<string, Map<string, string>>();
  const segment = /\*\*(\w+)\*\*(?:(?: and|,) \*\*(\w+)\*\*)?(?: \([^)]*\))?: (.*?)(?=\. \*\*\w+\*\*|\.?$)/g;
  for (const line of section.split('\n').filter((l) => l.startsWith('- **'))) {
    for (const [, first, second, text] of line.matchAll(segment)) {
      if (text.includes('the same ten')) continue; // checked by hand below
      let body = text;
      const fields = new Map<string, string>();
      const same = /^same fields as (\w+) without (.+?), with (.*)$/.exec(body);
      if (same) {
        for (const [name, type] of types.get(same[1]) ?? []) fields.set(name, type);
        for (const name of same[2].split(/,? and |, /)) fields.delete(name.trim());
        body = same[3];
      }
      for (const part of body.split('; ')) {
        const all = /^([\w, ]+) \(all (\S+)\)$/.exec(part.trim());
        if (all) for (const name of all[1].split(', ')) fields.set(name.trim(), all[2]);
        const f = /^(\w+)(?:\([^)]*\))?:(.+)$/.exec(part.trim());
        if (f) fields.set(f[1], f[2].trim());
      }
      for (const name of [first, second]) if (name && fields.size > 0) types.set(name, fields);
    }
  }
  return types;
}

/** Fields real Sage clients select beyond the spec's list (../shared/research/sage-names.md §5): served too. */
const SAGE_FIELDS: Record<string, readonly string[]> = { Country: ['legislationCode'], DocumentType: ['legislationCode'] };

{
  const sections = spec.split(/\n### /);
  const wanted = sections.filter((s) => /^2\.[2346] /.test(s)).flatMap((s) => [...specTypes(s)]);
  t.ok(wanted.length >= 58, `spec sections 2.2-2.4 and 2.6 parsed (${wanted.length} types)`);
  for (const [typeName, fields] of wanted) {
    t.test(typeName, async (t) => {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) return void t.fail(`${typeName} is not an object type in the SDL`);
      const actual = type.getFields();
      for (const [name, specType] of fields) {
        t.equal(actual[name]?.type.toString(), specType, `${typeName}.${name}: ${specType}`);
      }
      const added = SAGE_FIELDS[typeName] ?? [];
      t.same(Object.keys(actual).filter((f) => !added.includes(f)).sort(), [...fields.keys()].sort(), 'no field added or missing');
      for (const f of added) t.ok(actual[f], `${typeName}.${f}: Sage's field beyond the spec`);
    });
  }
  t.test('the types written as "same shape" / "the same ten"', async (t) => {
    const sheet = schema.getType('AccountingBalanceSheetOutputGLDto');
    const pnl = schema.getType('AccountingProfitAndLossOutputGLDto');
    if (!isObjectType(sheet) || !isObjectType(pnl)) return void t.fail('report types missing');
    t.same(Object.keys(pnl.getFields()).sort(), Object.keys(sheet.getFields()).sort());
    const trial = schema.getType('AccountingTrialBalanceOutputGLDto');
    if (!isObjectType(trial)) return void t.fail('trial balance type missing');
    for (const f of ['accumulatedBalance', 'accumulatedCreditAmount', 'accumulatedCreditBalance', 'accumulatedDebitAmount', 'accumulatedDebitBalance', 'balance', 'creditAmount', 'creditBalance', 'debitAmount', 'debitBalance']) {
      t.equal(trial.getFields()[f]?.type.toString(), 'Decimal!', f);
    }
  });

  t.test('mutations of the spec table carry its directives exactly', async (t) => {
    const rows = [...spec.matchAll(/^\| (\w+) \| (\w+)! \| (\w+) \| (\w+) \| ([\w-]+) \| ([\w/-]+) \| (\w+) \|$/gm)];
    // "The filter is NO_FILTER except for createEmployee and deleteEmployee, which use DE_FORBIDDEN."
    const exceptions = /NO_FILTER` except for (\w+) and (\w+), which use `DE_FORBIDDEN/.exec(spec)!.slice(1);
    t.same(exceptions, ['createEmployee', 'deleteEmployee'], 'the filter exceptions are read from the spec');
    const mutation = schema.getMutationType()!;
    let served = 0;
    for (const [, name, input, output, feature, acName, resource, action] of rows) {
      const field = mutation.getFields()[name];
      if (!field) continue; // later issues serve the purchase, banking and fixed-asset mutations
      served++;
      t.equal(field.args[0]?.name, 'input');
      t.equal(field.args[0]?.type.toString(), `${input}!`, `${name} input`);
      t.equal(field.type.toString(), output, `${name} result`);
      const op = name[0].toUpperCase() + name.slice(1);
      const line = sdl.split('\n').find((l) => l.trim().startsWith(`${name}(`)) ?? '';
      t.match(line, `@authorize(policy: "PublicApi:data:write")`);
      const filter = exceptions.includes(name) ? 'DE_FORBIDDEN' : 'NO_FILTER';
      t.match(line, `@feature(code: "${feature}", operation: "${op}", filter: ${filter})`);
      t.match(line, `@accessControl(name: "${acName}", resource: "${resource}", action: "${action}", operation: "${op}", filter: ${filter})`);
      t.match(line, `@cost(weight: "10")`);
    }
    t.equal(served, 35, 'the eight accounting, fifteen party, shared-settings and product, and twelve sales mutations of the spec table are served');
  });

  t.test('every field of every object type weighs 10', async (t) => {
    const types = Object.values(schema.getTypeMap()).filter((x) => isObjectType(x) && !x.name.startsWith('__'));
    let fields = 0;
    for (const type of types) {
      for (const field of Object.values((type as ReturnType<GraphQLSchema['getQueryType']> & object).getFields())) {
        fields++;
        if (!field.astNode?.directives?.some((d) => d.name.value === 'cost')) t.fail(`${type.name}.${field.name} has no @cost`);
      }
    }
    t.ok(fields >= 500, `${fields} fields checked`);
  });
}

/**
 * The module list is the one registry, and these walks keep it whole: every event type an aggregate
 * records is queued or deliberately excluded and every catalogue entry is some aggregate's; a queued
 * entry names its record; every error code has a message in each language; every mutation's access
 * resource is granted by its own module to the administrator (employees to the administrator only,
 * nothing to the viewer); and the SDL's mutations are exactly the modules' mutations.
 */
import { buildSchema } from 'graphql';
import t from 'tap';
import { ROLE_GRANTS } from '../api/auth/roles.ts';
import { buildSdl } from '../api/graphql/sdl.ts';
import { LANGUAGES, MESSAGES } from '../api/i18n.ts';
import { Errors } from '../domain/errors.ts';
import { KNOWN_FILTERS } from '../eventqueue/catalog.ts';
import { describerOf, isQueued } from '../eventqueue/event-catalog.ts';
import { MODULES, MUTATIONS } from '../modules/index.ts';

/**
 * Any field read from it is a non-empty string (numbers are String()ed by the describers), except the fields
 * events nest records or enum values in: `document` and `number` (sales) are samples themselves (and read as
 * a string where one is wanted), `kind` is a document kind the describers look up.
 */
const NESTED = new Set(['document', 'number', 'priceList']);
const sample: Record<string, unknown> = new Proxy({}, {
  get: (_, field) =>
    field === Symbol.toPrimitive ? () => 'sample' : field === 'kind' ? 'QUOTE' : NESTED.has(String(field)) ? sample : `sample-${String(field)}`,
});

t.test("every aggregate's event type is in its module's events, and every entry is some aggregate's", async (t) => {
  for (const m of MODULES) {
    const recorded = m.aggregates.flatMap((a) => a.eventTypes);
    t.same(recorded.filter((type) => !Object.hasOwn(m.events, type)), [], `${m.name}: every recorded event type is queued or excluded`);
    t.same(Object.keys(m.events).filter((type) => !recorded.includes(type)), [], `${m.name}: no entry for an event type no aggregate records`);
    for (const [type, entry] of Object.entries(m.events)) {
      if (!isQueued(entry)) {
        t.ok(entry.notQueued.trim().length > 10, `${m.name} ${type}: excluded with a reason`);
        continue;
      }
      const context = describerOf(entry)(sample);
      for (const part of ['object', 'event', 'key', 'id'] as const) t.ok(typeof context[part] === 'string' && context[part].length > 0, `${m.name} ${type}: names its ${part}`);
      t.match(context.event, /^after\.[a-z][A-Za-z]*$/, `${m.name} ${type}: an action in the spec's style`);
      t.ok(KNOWN_FILTERS.includes(`${context.object}/${context.event}`), `${m.name} ${type}: a filter triggers may name`);
    }
  }
  const types = MODULES.flatMap((m) => Object.keys(m.events));
  t.equal(new Set(types).size, types.length, 'no event type in two modules');
});

t.test('every error code has a message in every language', async (t) => {
  const codes = new Set<string>([...Object.values(Errors), ...MODULES.flatMap((m) => Object.keys(m.errors))]);
  for (const code of codes) {
    for (const language of LANGUAGES) t.ok(MESSAGES[code]?.[language]?.trim(), `${code} in ${language}`);
  }
});

t.test("every mutation's resource is granted by its own module to the administrator; employees to the administrator only", async (t) => {
  for (const m of MODULES) {
    for (const mutation of m.mutations) {
      t.ok(m.grants[mutation.accessControl.resource]?.includes('admin'), `${m.name} ${mutation.name}: ${mutation.accessControl.resource} granted to admin`);
    }
  }
  t.same([...ROLE_GRANTS.get('active/employee') ?? []], ['admin'], 'employees: personal data, administrators only');
  for (const [resource, roles] of ROLE_GRANTS) t.notOk(roles.has('viewer'), `${resource}: never written by a viewer`);
  const used = new Set(MUTATIONS.map((m) => m.accessControl.resource));
  t.same([...ROLE_GRANTS.keys()].filter((r) => !used.has(r)), [], 'no grant for a resource no mutation names');
});

t.test("every Mutation field of the SDL is served by a module's mutation, with its input type, and vice versa", async (t) => {
  const fields = buildSchema(buildSdl()).getMutationType()!.getFields();
  t.same(Object.keys(fields).sort(), MUTATIONS.map((m) => m.name).sort());
  for (const m of MUTATIONS) {
    const field = fields[m.name];
    if (!field) continue;
    t.equal(String(field.args.find((a) => a.name === 'input')?.type), `${m.input}!`, `${m.name}: takes ${m.input}`);
    t.equal(String(field.type).replace(/!$/, ''), m.output, `${m.name}: answers ${m.output}`);
  }
  t.equal(new Set(MUTATIONS.map((m) => m.name)).size, MUTATIONS.length, 'no mutation in two modules');
});

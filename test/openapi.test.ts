/**
 * The OpenAPI document at /openapi.json, from the real service: OpenAPI 3.1, public, every route the service
 * serves (GraphQL aside: its own schema describes it) with its method and declared answers, every REST
 * collection with its item's fields, and real answers that validate against the schemas it declares.
 */
import t, { type Test } from 'tap';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createTrigger } from '../eventqueue/triggers.ts';
import { GRAPHQL_RESOURCES } from '../api/graphql/sdl.ts';
import { restCollections } from '../projections/engine/resource.ts';
import { EVENT_QUEUE_BASE } from '../api/eventqueue/plugin.ts';
import { storedFields } from '../projections/engine/resource.ts';
import { runningService } from './helpers/service.ts';

const api = await runningService(t);
const headers = { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId };
/** Every REST collection with its resource (a resource may have several, under fixed filters). */
const RESOURCES = GRAPHQL_RESOURCES.flatMap((r) => restCollections(r).map((rest) => ({ ...r, rest })));

// One record in the collections the demo books leave empty, with enum and decimal fields set.
for (const mutation of [
  `mutation { createCustomer(input: { socialName: "Bazar Luna" }) { id } }`,
  `mutation { createSupplier(input: { socialName: "Maderas del Norte S.A.", supplierType: BUSINESS }) { id } }`,
  `mutation { createEmployee(input: { name: "Luis Pérez", status: ENABLED }) { id } }`,
  `mutation { createProduct(input: { code: "P1", name: "Silla", category: PRODUCT, salesUnitPrice: "45.50" }) { id } }`,
  `mutation { createBusinessArea(input: { name: "Retail" }) { id } }`,
  `mutation { createJobArea(input: { name: "Sales" }) { id } }`,
  `mutation { createPaymentMean(input: { description: "Transferencia" }) { id } }`,
]) {
  const answer = await api.gql(mutation);
  if (answer.errors) throw new Error(`${mutation}: ${JSON.stringify(answer.errors)}`);
}
{
  const { data } = await api.gql(`{ journalTypes(first: 1) { nodes { id } } accountingAccounts(where: { code: { eq: "5720000" } }) { nodes { id } } }`);
  const answer = await api.gql(`mutation($v: PaymentMethodCreateGLDtoInput!) { createPaymentMethod(input: $v) { id } }`, { v: { referenceName: 'Banco', journalTypeId: data.journalTypes.nodes[0].id, subAccountId: data.accountingAccounts.nodes[0].id } });
  if (answer.errors) throw new Error(`createPaymentMethod: ${JSON.stringify(answer.errors)}`);
}

{
  // One sales document of each kind, for the customer above (a line of a product and a free one).
  const { data } = await api.gql(`{ customers(first: 1) { nodes { id } } products(first: 1) { nodes { id } } }`);
  const lines = [{ productId: data.products.nodes[0].id, totalQuantity: '2' }, { productCode: 'SRV', productName: 'Montaje', totalQuantity: '1', unitPrice: '30.00', firstDiscount: '10' }];
  for (const kind of ['Quote', 'Order', 'DeliveryNote', 'Invoice']) {
    const answer = await api.gql(`mutation($v: Sales${kind}CreateGLDtoInput!) { createSales${kind}(input: $v) { id } }`, { v: { customerId: data.customers.nodes[0].id, documentDate: '2026-03-02', lines } });
    if (answer.errors) throw new Error(`createSales${kind}: ${JSON.stringify(answer.errors)}`);
    if (kind !== 'Invoice') continue;
    // The invoice closed and credited: the credit notes' collection has one too.
    const salesInvoiceId = answer.data.createSalesInvoice.id;
    for (const [name, input, v] of [['closeSalesInvoice', 'CloseSalesInvoiceGLDtoInput', { salesInvoiceId }], ['generateCreditNote', 'GenerateCreditNoteGLDtoInput', { id: salesInvoiceId }]] as const) {
      const step = await api.gql(`mutation($v: ${input}!) { ${name}(input: $v) { id } }`, { v });
      if (step.errors) throw new Error(`${name}: ${JSON.stringify(step.errors)}`);
    }
  }
}

const served = await fetch(`${api.base}/openapi.json`); // no token: the document is public
const doc = await served.json();

// (ajv-formats is CommonJS: its default export is the plugin under NodeNext's interop.)
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

/** Every route of the app's router, as `METHOD /path/{param}`, read from its route tree (printRoutes). */
function routesOfApp(): string[] {
  const tree = api.service.app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack[depth] = (depth > 0 ? stack[depth - 1] : '') + m[2];
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) routes.push(`${method} ${stack[depth].replace(/:(\w+)/g, '{$1}')}`);
  }
  return routes;
}

const operation = (path: string, method: string) => doc.paths?.[path]?.[method.toLowerCase()];

/** The JSON schema the document declares for an answer of this status (its exact code, else its class such as 4XX). */
function responseSchema(path: string, method: string, status: number) {
  const responses = operation(path, method)?.responses ?? {};
  const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
  return declared?.content?.['application/json']?.schema;
}

async function call(method: string, url: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(`${api.base}${url}`, { method, headers: init.headers ?? headers, body: init.body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A real answer validates against the schema the document declares for its route and status. */
function conforms(t: Test, path: string, method: string, answer: { status: number; body: unknown }) {
  const schema = responseSchema(path, method, answer.status);
  if (!t.ok(schema, `${method} ${path} declares a schema for ${answer.status}`)) return;
  const validate = ajv.compile(schema);
  t.ok(validate(answer.body), `${method} ${path} ${answer.status} conforms`) || t.comment(JSON.stringify(validate.errors?.slice(0, 5)));
}

t.test('served at /openapi.json without a token, as OpenAPI 3.1', async (t) => {
  t.equal(served.status, 200);
  t.match(served.headers.get('content-type'), /^application\/json/);
  t.match(doc.openapi, /^3\.1\.\d+$/, 'OpenAPI 3.1.x');
  t.ok(doc.info?.title && doc.info?.version, 'info title and version');
  const schemes = doc.components?.securitySchemes ?? {};
  t.match(schemes.bearer, { type: 'http', scheme: 'bearer' }, 'bearer tokens');
  for (const region of ['na', 'eu', 'uk']) {
    t.match(schemes[`oauth2_${region}`]?.flows?.authorizationCode, { authorizationUrl: '/oauth/authorize', tokenUrl: `/oauth/${region}/token` }, `authorization code at ${region}`);
  }
});

t.test('every route the service serves is described with its method and declared answers (GraphQL aside)', async (t) => {
  const routes = routesOfApp().filter((r) => !r.startsWith('HEAD ') && !/ \/graphi?ql(\/|$)/.test(r));
  t.ok(routes.length > 40, `the route tree was read (${routes.length} routes)`);
  for (const route of routes) {
    const [method, path] = route.split(' ');
    const op = operation(path, method);
    if (!t.ok(op, `${route} is in the document`)) continue;
    t.ok(Object.values(op.responses ?? {}).some((r: any) => r.content), `${route} declares the schema of an answer`);
    for (const name of path.match(/\{(\w+)\}/g) ?? []) {
      t.ok(op.parameters?.some((p: any) => p.in === 'path' && `{${p.name}}` === name && p.schema), `${route} declares ${name}`);
    }
  }
  t.notOk(doc.paths['/graphql'], 'GraphQL is left to its own schema');
  const described = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`));
  t.same(described.filter((d) => !routes.includes(d)), [], 'and nothing the service does not serve');
});

t.test('REST routes declare the token, the organisation header and Sage errors', async (t) => {
  for (const [path, ops] of Object.entries(doc.paths) as Array<[string, Record<string, any>]>) {
    if (path.startsWith('/oauth') || path.startsWith(EVENT_QUEUE_BASE) || ['/health', '/metrics', '/openapi.json'].includes(path)) continue;
    for (const [method, op] of Object.entries(ops)) {
      t.ok(op.security?.some((s: object) => 'bearer' in s), `${method} ${path}: bearer token`);
      t.ok(op.parameters?.some((p: any) => p.in === 'header' && p.name === 'x-site'), `${method} ${path}: X-Site`);
      t.match(op.responses?.['4XX']?.content?.['application/json']?.schema, { type: 'array', items: { required: ['$severity', '$dataCode', '$message', '$source'] } }, `${method} ${path}: Sage errors`);
    }
  }
});

t.test('each REST collection is there with its item fields and their JSON types', async (t) => {
  for (const resource of RESOURCES) {
    const path = resource.rest.path;
    const list = responseSchema(path, 'GET', 200);
    const item = responseSchema(`${path}/{id}`, 'GET', 200);
    if (!t.ok(list && item, `${path} and ${path}/{id}`)) continue;
    t.same(list.properties.$items.items, item, `${path}: the list's items are the item`);
    t.ok(operation(path, 'GET').parameters.some((p: any) => p.in === 'query' && p.name === 'items_per_page'), `${path}: paging parameters`);
    t.match(item.properties, { id: { format: 'uuid' }, displayed_as: { type: 'string' }, $path: { type: 'string' } }, `${path}: id, displayed_as, $path`);
    for (const x of storedFields(resource).filter((x) => x.rest !== false && !x.hidden && x.name !== 'id')) {
      const name = x.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      const property = item.properties[name];
      if (!t.ok(property, `${path}: ${name}`)) continue;
      const types = [property.type].flat();
      if (x.scalar === 'Decimal') t.ok(types.includes('string') && property.pattern, `${path}: ${name} is a decimal string`);
      if (x.scalar === 'DateTime') t.equal(property.format, 'date-time', `${path}: ${name} is a date-time string`);
      if (x.enumValues) t.same(property.enum.filter((v: unknown) => v !== null), [...x.enumValues], `${path}: ${name}'s values`);
      t.equal(types.includes('null'), !x.nonNull, `${path}: ${name} is nullable as stored`);
    }
  }
});

t.test('real REST answers conform to the document', async (t) => {
  let items = 0;
  for (const resource of RESOURCES) {
    const path = resource.rest.path;
    const list = await call('GET', `${path}?items_per_page=3`);
    t.equal(list.status, 200, path);
    conforms(t, path, 'GET', list);
    for (const node of list.body.$items.slice(0, 1)) {
      items++;
      conforms(t, `${path}/{id}`, 'GET', await call('GET', `${path}/${node.id}`));
    }
  }
  t.ok(items >= RESOURCES.length - 1, `an item of (nearly) every collection was checked (${items} of ${RESOURCES.length})`);
  conforms(t, '/ledger_accounts/{id}', 'GET', await call('GET', '/ledger_accounts/00000000-0000-4000-8000-000000000000'));
  conforms(t, '/ledger_accounts', 'GET', await call('GET', '/ledger_accounts?page=x'));
  conforms(t, '/ledger_accounts', 'GET', await call('GET', '/ledger_accounts', { headers: {} }));

  const hook = await createTrigger(api.service.db.pool, { organisationId: api.organisationId, type: 'http-post', url: 'https://93.184.216.34/hook' });
  conforms(t, '/triggers', 'GET', await call('GET', '/triggers'));
  conforms(t, '/triggers/{id}', 'GET', await call('GET', `/triggers/${hook.id}`));
  conforms(t, '/triggers/{id}/deliveries', 'GET', await call('GET', `/triggers/${hook.id}/deliveries`));
  const json = { ...headers, 'Content-Type': 'application/json' };
  const created = await call('POST', '/triggers', { headers: json, body: JSON.stringify({ type: 'event-queue', client_id: api.clientId }) });
  t.equal(created.status, 201);
  conforms(t, '/triggers', 'POST', created);
  conforms(t, '/triggers', 'POST', await call('POST', '/triggers', { headers: json, body: JSON.stringify({ type: 'event-queue', clientId: 'typo' }) }));
});

t.test('event queue, OAuth and service answers conform to the document', async (t) => {
  conforms(t, `${EVENT_QUEUE_BASE}/count`, 'GET', await call('GET', `${EVENT_QUEUE_BASE}/count`));
  conforms(t, `${EVENT_QUEUE_BASE}/list`, 'GET', await call('GET', `${EVENT_QUEUE_BASE}/list?size=5`));
  conforms(t, `${EVENT_QUEUE_BASE}/list`, 'GET', await call('GET', `${EVENT_QUEUE_BASE}/list?size=0`));
  conforms(t, `${EVENT_QUEUE_BASE}/ack`, 'POST', await call('POST', `${EVENT_QUEUE_BASE}/ack`, { headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ ackId: '00000000-0000-4000-8000-000000000000' }) }));
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  conforms(t, '/oauth/eu/token', 'POST', await call('POST', '/oauth/eu/token', { headers: form, body: `grant_type=refresh_token&refresh_token=x&client_id=${api.clientId}` }));
  conforms(t, '/health', 'GET', await call('GET', '/health', { headers: {} }));
});

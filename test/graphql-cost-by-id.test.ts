/**
 * A list whose filter names its rows by id (`id: { eq }`, `id: { in: [...] }`) holds at most that many: the cost
 * analysis sizes it so, not by the default page. Sage reads a customer by id with no `first` (pm-029, hp-007..009).
 */
import t from 'tap';
import { buildSchema, parse, validate } from 'graphql';
import { buildSdl } from '../api/graphql/sdl.ts';
import { DEFAULT_COST_LIMITS, checkCost, operationCost } from '../api/graphql/cost.ts';
import { runningService } from './helpers/service.ts';

const schema = buildSchema(buildSdl());
function cost(source: string, variables?: Record<string, unknown>) {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`invalid test operation: ${errors.map((e) => e.message).join('; ')}`);
  return operationCost(schema, document, variables);
}

// What Sage's customer fragment selects (test/sage-operations/parties.ts).
const CUSTOMER = `id code socialName tradeName documentId vatNumber countryAcronym disabled
  addresses { id firstLine secondLine city province zipCode countryIsoCodeAlpha2 }
  contacts { id isDefault courtesy name surname phones { id isDefault number type } emails { id emailAddress usage isDefault } socialMedias { id name link } }`;
const BY_ID = `query customerById($id: UUID!) { customers(where: { id: { eq: $id } }) { edges { node { ${CUSTOMER} } } } }`;
const ID = '8f80a4ea-4f7e-457e-948c-a16dbccb82bf';

t.test('id eq sizes the list at one row, id in at as many as listed; other filters at the page', async (t) => {
  const one = cost(BY_ID, { id: ID });
  const page = cost(`{ customers(where: { code: { eq: "C00001" } }) { edges { node { ${CUSTOMER} } } } }`);
  const first1 = cost(`{ customers(first: 1) { edges { node { ${CUSTOMER} } } } }`);
  t.equal(one.fieldCost, first1.fieldCost, 'priced as first: 1');
  t.equal(checkCost(one, DEFAULT_COST_LIMITS), null, 'within the limit');
  t.ok(checkCost(page, DEFAULT_COST_LIMITS), 'a list without an id filter is still priced at the assumed page (50) and refused');
  const three = cost(`query($ids: [UUID]) { customers(where: { id: { in: $ids } }) { edges { node { ${CUSTOMER} } } } }`, { ids: [ID, ID, ID] });
  const first3 = cost(`{ customers(first: 3) { edges { node { ${CUSTOMER} } } } }`);
  t.equal(three.fieldCost, first3.fieldCost, 'in: 3 ids priced as first: 3');
  const bigger = cost(`{ customers(first: 2, where: { id: { in: ["${ID}", "${ID}", "${ID}"] } }) { edges { node { id } } } }`);
  t.equal(bigger.fieldCost, cost(`{ customers(first: 2) { edges { node { id } } } }`).fieldCost, 'first still bounds it when smaller');
  const inside = cost(`{ customers(where: { or: [{ id: { eq: "${ID}" } }, { code: { eq: "C1" } }] }) { edges { node { id } } } }`);
  t.equal(inside.fieldCost, cost(`{ customers { edges { node { id } } } }`).fieldCost, 'an id under or bounds nothing');
});

t.test("Sage's read of a customer by id, without first, runs", async (t) => {
  const api = await runningService(t);
  const created = await api.gql(`mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { id } }`, { v: { socialName: 'Bazar Luna' } });
  const r = await api.gql(BY_ID, { id: created.data.createCustomer.id });
  t.same(r.errors, undefined);
  t.equal(r.data.customers.edges[0].node.socialName, 'Bazar Luna');
});

/**
 * Customers, suppliers and employees through the API: create (with generated codes), read through
 * GraphQL (nested addresses, contacts, payment term lines, references) and REST, filter, sort, page,
 * update, delete; every validation refusal appends nothing; a party named by an entry cannot be deleted.
 */
import t from 'tap';
import { runningService } from './helpers/service.ts';
import { graphqlAnswers } from './helpers/graphql-answers.ts';

const api = await runningService(t);
const year = new Date().getUTCFullYear();

const { ok } = graphqlAnswers(api);

const businessArea = (await ok(`mutation { createBusinessArea(input: { name: "Retail" }) { id } }`)).createBusinessArea.id;
const jobArea = (await ok(`mutation { createJobArea(input: { name: "Purchasing" }) { id } }`)).createJobArea.id;
const transfer = (await ok(`mutation { createPaymentMean(input: { description: "Transferencia" }) { id } }`)).createPaymentMean.id;
const documentTypes = (await ok(`{ documentTypes(first: 50) { nodes { id code } } }`)).documentTypes.nodes;
const nif = documentTypes.find((d: any) => d.code === 'NIF').id;
const account4300001 = (await ok(`{ accountingAccounts(where: { code: { eq: "4300001" } }) { nodes { id } } }`)).accountingAccounts.nodes[0].id;

const CREATE_CUSTOMER = `mutation($v: CustomerCreateGLDtoInput!) { createCustomer(input: $v) { code id } }`;
const fullCustomer = {
  socialName: 'Ferretería Martínez S.L.', tradeName: 'Ferretería Martínez', vatNumber: 'B12345674', countryAcronym: 'ES', documentTypeId: nif,
  documentId: 'B12345674', documentLanguage: 'SPANISH', customerType: 'BUSINESS', businessAreaId: businessArea, defaultAccountingAccountId: account4300001,
  discount: '2.5', comments: 'Pays on time',
  addresses: [
    { name: 'Head office', firstLine: 'Calle Mayor 1', city: 'Madrid', province: 'Madrid', zipCode: '28013', countryIsoCodeAlpha2: 'ES', isMainAddress: true },
    { name: 'Warehouse', firstLine: 'Polígono Sur 7', city: 'Getafe', zipCode: '28901', countryIsoCodeAlpha2: 'ES', isDeliveryAddress: true, isDefaultDeliveryAddress: true },
  ],
  contacts: [{
    courtesy: 'MISS', name: 'Lucía', surname: 'Martínez', jobName: 'Buyer', jobAreaId: jobArea, isDefault: true, isDefaultCustomer: true,
    emails: [{ emailAddress: 'lucia@ferreteria.example', usage: 'INVOICES', isDefault: true }],
    phones: [{ number: '612 345 678', type: 'MOBILE', isDefault: true }],
    socialMedias: [{ name: 'LinkedIn', link: 'https://www.linkedin.com/in/lucia' }],
  }],
  paymentTermLines: [
    { condition: 'DAY_OF_PAYMENT', day: 30, type: 'PERCENTAGE', value: '50', paymentMeanId: transfer },
    { condition: 'DAY_OF_PAYMENT', day: 60, payDays: [20, 5], type: 'REMAINING_AMOUNT', paymentMeanId: transfer },
  ],
};

t.test('a customer is created with a generated code and read back whole through GraphQL', async (t) => {
  const created = (await ok(CREATE_CUSTOMER, { v: fullCustomer })).createCustomer;
  t.equal(created.code, 'C00001', 'the first generated customer code');
  const r = await ok(`query($id: UUID!) { customers(where: { id: { eq: $id } }) { nodes {
      code socialName tradeName vatNumber viesCode countryAcronym discount status customerType sourceType disabled gdprApplied documentLanguage
      businessArea { name } documentType { code } defaultAccountingAccount { code }
      addresses { name firstLine isMainAddress isDefaultDeliveryAddress countryName country { isoCodeAlpha3 } }
      contacts { name surname courtesy isDefault jobArea { name } emails { emailAddress usage } phones { number type } socialMedias { link } }
      paymentTermLines { order day payDays type value paymentMean { description } }
    } } }`, { id: created.id });
  const c = r.customers.nodes[0];
  t.match(c, {
    code: 'C00001', socialName: 'Ferretería Martínez S.L.', vatNumber: 'ESB12345674', viesCode: 'ES', countryAcronym: 'ES', discount: '2.50',
    status: 'ENABLED', customerType: 'BUSINESS', sourceType: 'PUBLIC_API', disabled: false, gdprApplied: false, documentLanguage: 'SPANISH',
    businessArea: { name: 'Retail' }, documentType: { code: 'NIF' }, defaultAccountingAccount: { code: '4300001' },
  });
  t.same(c.addresses.map((a: any) => [a.name, a.isMainAddress, a.isDefaultDeliveryAddress, a.countryName, a.country.isoCodeAlpha3]), [
    ['Head office', true, false, 'Spain', 'ESP'], ['Warehouse', false, true, 'Spain', 'ESP'],
  ]);
  t.same(c.contacts, [{
    name: 'Lucía', surname: 'Martínez', courtesy: 'MISS', isDefault: true, jobArea: { name: 'Purchasing' },
    emails: [{ emailAddress: 'lucia@ferreteria.example', usage: 'INVOICES' }], phones: [{ number: '+34612345678', type: 'MOBILE' }],
    socialMedias: [{ link: 'https://www.linkedin.com/in/lucia' }],
  }], 'phone numbers are stored in E.164');
  t.same(c.paymentTermLines, [
    { order: 1, day: 30, payDays: [], type: 'PERCENTAGE', value: '50.00', paymentMean: { description: 'Transferencia' } },
    { order: 9999, day: 60, payDays: [5, 20], type: 'REMAINING_AMOUNT', value: '50.00', paymentMean: { description: 'Transferencia' } },
  ], 'the remainder line carries what the others leave');
  t.equal((await ok(CREATE_CUSTOMER, { v: { socialName: 'Bazar Luna' } })).createCustomer.code, 'C00002');
  t.equal((await ok(CREATE_CUSTOMER, { v: { code: 'VIP-1', socialName: 'Zapatos Sol' } })).createCustomer.code, 'VIP-1');
});

t.test('customers filter, sort and page; REST lists and items', async (t) => {
  const filtered = await ok(`{ customers(where: { socialName: { contains: "Martínez" } }) { totalCount nodes { code } } }`);
  t.same(filtered.customers.nodes, [{ code: 'C00001' }]);
  const sorted = await ok(`{ customers(order: [{ socialName: DESC }]) { nodes { socialName } } }`);
  t.same(sorted.customers.nodes.map((n: any) => n.socialName), ['Zapatos Sol', 'Ferretería Martínez S.L.', 'Bazar Luna']);
  const page1 = await ok(`{ customers(first: 2) { totalCount nodes { code } pageInfo { hasNextPage endCursor } } }`);
  t.equal(page1.customers.totalCount, 3);
  t.same(page1.customers.nodes.map((n: any) => n.code), ['C00001', 'C00002'], 'ordered by code by default');
  const page2 = await ok(`query($after: String) { customers(first: 2, after: $after) { nodes { code } pageInfo { hasNextPage } } }`, { after: page1.customers.pageInfo.endCursor });
  t.same(page2.customers.nodes.map((n: any) => n.code), ['VIP-1']);
  t.equal(page2.customers.pageInfo.hasNextPage, false);

  const list = await api.rest('/customers?items_per_page=2&page=1');
  t.equal(list.status, 200);
  t.equal(list.body.$total, 3);
  t.equal(list.body.$next, '/customers?page=2&items_per_page=2');
  const first = list.body.$items[0];
  t.equal(first.displayed_as, 'C00001 Ferretería Martínez S.L.');
  t.equal(first.vat_number, 'ESB12345674');
  const item = await api.rest(first.$path);
  t.equal(item.status, 200);
  t.equal(item.body.social_name, 'Ferretería Martínez S.L.');
});

t.test('an update changes what it names; disabling stamps the date', async (t) => {
  const { id } = (await ok(`{ customers(where: { code: { eq: "C00002" } }) { nodes { id } } }`)).customers.nodes[0];
  const r = await ok(`mutation($v: CustomerUpdateGLDtoInput!) { updateCustomer(input: $v) { id } }`, { v: { id, tradeName: 'Luna', disabled: true, status: 'DISABLED' } });
  t.equal(r.updateCustomer.id, id);
  const c = (await ok(`query($id: UUID!) { customers(where: { id: { eq: $id } }) { nodes { socialName tradeName disabled disabledDate status } } }`, { id })).customers.nodes[0];
  t.match(c, { socialName: 'Bazar Luna', tradeName: 'Luna', disabled: true, status: 'DISABLED' });
  t.ok(c.disabledDate, 'disabledDate set');
});

t.test('every validation refusal is a business error and appends nothing', async (t) => {
  const cases: [string, object, string][] = [
    ['VAT check digit', { socialName: 'X', vatNumber: 'B12345675', countryAcronym: 'ES' }, 'global.businessErrors.invalidVatNumber'],
    ['French VAT', { socialName: 'X', vatNumber: 'FR40303265046', countryAcronym: 'FR' }, 'global.businessErrors.invalidVatNumber'],
    ['unknown country', { socialName: 'X', countryAcronym: 'XX' }, 'global.businessErrors.invalidCountry'],
    ['address country', { socialName: 'X', addresses: [{ countryIsoCodeAlpha2: 'QQ' }] }, 'global.businessErrors.invalidCountry'],
    ['e-mail', { socialName: 'X', contacts: [{ name: 'A', emails: [{ emailAddress: 'not-an-email@' }] }] }, 'global.businessErrors.invalidEmail'],
    ['phone', { socialName: 'X', contacts: [{ name: 'A', phones: [{ number: '12' }] }] }, 'global.businessErrors.invalidPhone'],
    ['two default contacts', { socialName: 'X', contacts: [{ name: 'A', isDefault: true }, { name: 'B', isDefault: true }] }, 'global.businessErrors.moreThanOneDefault'],
    ['two main addresses', { socialName: 'X', addresses: [{ isMainAddress: true }, { isMainAddress: true }] }, 'global.businessErrors.moreThanOneDefault'],
    ['two default e-mails', { socialName: 'X', contacts: [{ emails: [{ emailAddress: 'a@b.example', isDefault: true }, { emailAddress: 'c@d.example', isDefault: true }] }] }, 'global.businessErrors.moreThanOneDefault'],
    ['terms not 100%', { socialName: 'X', paymentTermLines: [{ condition: 'DAY_OF_PAYMENT', day: 30, type: 'PERCENTAGE', value: '60' }] }, 'global.businessErrors.invalidPaymentTermLines'],
    ['unknown business area', { socialName: 'X', businessAreaId: '00000000-0000-4000-8000-000000000000' }, 'global.businessErrors.sharedSettingNotFound'],
    ['unknown account', { socialName: 'X', defaultAccountingAccountId: '00000000-0000-4000-8000-000000000000' }, 'accounting.businessErrors.accountNotFound'],
    ['social link', { socialName: 'X', contacts: [{ socialMedias: [{ link: 'javascript:alert(1)' }] }] }, 'global.businessErrors.invalidInput'],
    ['taken code', { code: 'VIP-1', socialName: 'X' }, 'global.businessErrors.partyCodeAlreadyExists'],
    ['empty name', { socialName: '' }, 'global.businessErrors.invalidInput'],
  ];
  for (const [name, v, code] of cases) {
    const before = await api.eventCount();
    const r = await api.gql(CREATE_CUSTOMER, { v });
    t.equal(r.errors?.[0]?.extensions?.code, code, `${name}: ${code}`);
    t.equal(r.data?.createCustomer, null, `${name}: no result`);
    t.equal(await api.eventCount(), before, `${name}: nothing appended`);
  }
  const spanish = await api.gql(CREATE_CUSTOMER, { v: cases[0][1] }, { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Accept-Language': 'es' });
  t.match(spanish.errors[0].message, /no es un NIF-IVA válido/);
  const keys = await api.service.db.pool.query(`SELECT count(*)::int AS n FROM subject_keys`);
  t.equal(keys.rows[0].n, 3, 'refused commands made no subject key either');
});

t.test('a customer named by a live entry cannot be deleted; an unused one can', async (t) => {
  const { id } = (await ok(`{ customers(where: { code: { eq: "C00001" } }) { nodes { id } } }`)).customers.nodes[0];
  await ok(`mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`, {
    v: { date: `${year}-02-03`, journalTypeCode: 'VEN', accountingEntryLines: [{ subAccountCode: '4300001', thirdCode: 'C00001', debitAmount: '121.00' }, { subAccountCode: '7000000', creditAmount: '121.00' }] },
  });
  const before = await api.eventCount();
  const refused = await api.gql(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id });
  t.equal(refused.errors?.[0]?.extensions?.code, 'global.businessErrors.partyInUse');
  t.match(refused.errors?.[0]?.message, /disable it instead/);
  const spanish = await api.gql(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id }, { Authorization: `Bearer ${api.token}`, 'X-Site': api.organisationId, 'Accept-Language': 'es' });
  t.equal(spanish.errors?.[0]?.message, 'El cliente C00001 se usa en asientos o documentos y no se puede eliminar; desactívelo.', 'the kind in Spanish');
  t.equal(await api.eventCount(), before, 'nothing appended');

  const unused = (await ok(`{ customers(where: { code: { eq: "VIP-1" } }) { nodes { id } } }`)).customers.nodes[0].id;
  t.equal((await ok(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id: unused })).deleteCustomer.id, unused);
  t.equal((await ok(`{ customers(where: { code: { eq: "VIP-1" } }) { totalCount } }`)).customers.totalCount, 0);
  t.equal((await api.rest(`/customers/${unused}`)).status, 404);
  const again = await api.gql(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id: unused });
  t.equal(again.errors?.[0]?.extensions?.code, 'global.businessErrors.partyNotFound');
  t.equal((await ok(CREATE_CUSTOMER, { v: { code: 'VIP-1', socialName: 'Zapatos Sol' } })).createCustomer.code, 'VIP-1', 'a deleted code is free again');
});

t.test('an entry posted by ids names the party by id: that guards deletion too', async (t) => {
  const { id } = (await ok(CREATE_CUSTOMER, { v: { socialName: 'Por Ids S.A.' } })).createCustomer;
  const accounts = (await ok(`{ accountingAccounts(where: { code: { in: ["4300001", "7000000"] } }, order: [{ code: ASC }]) { nodes { id } } }`)).accountingAccounts.nodes;
  const journal = (await ok(`{ journalTypes(where: { code: { eq: "VEN" } }) { nodes { id } } }`)).journalTypes.nodes[0].id;
  await ok(`mutation($v: AccountingEntryCreateUsingIdsGLDtoInput!) { createAccountingEntryUsingIds(input: $v) { id } }`, {
    v: { date: `${year}-02-04`, journalTypeId: journal, accountingEntryLines: [{ subAccountId: accounts[0].id, thirdId: id, debitAmount: '10' }, { subAccountId: accounts[1].id, creditAmount: '10' }] },
  });
  const refused = await api.gql(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id });
  t.equal(refused.errors?.[0]?.extensions?.code, 'global.businessErrors.partyInUse');
});

t.test('an entry naming no party of the organisation is refused, naming the line, and appends nothing', async (t) => {
  const BY_CODES = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`;
  const BY_IDS = `mutation($v: AccountingEntryCreateUsingIdsGLDtoInput!) { createAccountingEntryUsingIds(input: $v) { id } }`;
  const accounts = (await ok(`{ accountingAccounts(where: { code: { in: ["4300001", "7000000"] } }, order: [{ code: ASC }]) { nodes { id } } }`)).accountingAccounts.nodes;
  const journal = (await ok(`{ journalTypes(where: { code: { eq: "VEN" } }) { nodes { id } } }`)).journalTypes.nodes[0].id;
  const byCode = (thirdCode: string) => ({ v: { date: `${year}-02-05`, journalTypeCode: 'VEN', accountingEntryLines: [{ subAccountCode: '7000000', creditAmount: '5' }, { subAccountCode: '4300001', thirdCode, debitAmount: '5' }] } });
  const byId = (thirdId: string) => ({ v: { date: `${year}-02-05`, journalTypeId: journal, accountingEntryLines: [{ subAccountId: accounts[1].id, creditAmount: '5' }, { subAccountId: accounts[0].id, thirdId, debitAmount: '5' }] } });
  const other = await api.service.commands.createOrganisation({}, { name: 'Otra SL', country: 'ES' });
  const foreign = await api.service.mutate.createCustomer({ organisationId: other.id }, { socialName: 'Ajeno S.A.' });
  const gone = (await ok(CREATE_CUSTOMER, { v: { code: 'GONE-1', socialName: 'Cerrado S.L.' } })).createCustomer;
  await ok(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id: gone.id });
  const cases: [string, string, object][] = [
    ['an unknown code', BY_CODES, byCode('NO-SUCH-PARTY')],
    ["a deleted party's code", BY_CODES, byCode('GONE-1')],
    ["a party's id given as its code", BY_CODES, byCode(foreign.id)],
    ['a random id', BY_IDS, byId(crypto.randomUUID())],
    ["another organisation's customer", BY_IDS, byId(foreign.id)],
    ["a deleted party's id", BY_IDS, byId(gone.id)],
  ];
  for (const [name, mutation, variables] of cases) {
    const before = await api.eventCount();
    const r = await api.gql(mutation, variables);
    t.equal(r.errors?.[0]?.extensions?.code, 'accounting.businessErrors.thirdPartyNotFound', name);
    t.equal(r.errors?.[0]?.extensions?.parameters?.line, 2, `${name}: names the line`);
    t.equal(await api.eventCount(), before, `${name}: nothing appended`);
  }
  const known = (await ok(CREATE_CUSTOMER, { v: { socialName: 'Conocido S.L.' } })).createCustomer;
  t.ok((await ok(BY_CODES, byCode(known.code))).createAccountingEntryUsingCodes.id, 'a live party by code posts');
  t.ok((await ok(BY_IDS, byId(known.id))).createAccountingEntryUsingIds.id, 'and by id');
});

t.test('a party deleted while an entry names it: either the entry or the deletion is refused, never both pass', async (t) => {
  const BY_CODES = `mutation($v: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $v) { id } }`;
  for (let round = 0; round < 10; round++) {
    const party = (await ok(CREATE_CUSTOMER, { v: { socialName: `Carrera ${round}` } })).createCustomer;
    const [posted, deleted] = await Promise.all([
      api.gql(BY_CODES, { v: { date: `${year}-02-06`, journalTypeCode: 'VEN', accountingEntryLines: [{ subAccountCode: '4300001', thirdCode: party.code, debitAmount: '1' }, { subAccountCode: '7000000', creditAmount: '1' }] } }),
      api.gql(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id: party.id }),
    ]);
    const outcome = [posted.errors?.[0]?.extensions?.code ?? 'posted', deleted.errors?.[0]?.extensions?.code ?? 'deleted'];
    t.ok(
      (outcome[0] === 'posted' && outcome[1] === 'global.businessErrors.partyInUse') || (outcome[0] === 'accounting.businessErrors.thirdPartyNotFound' && outcome[1] === 'deleted'),
      `round ${round}: ${outcome.join(', ')}`,
    );
  }
});

t.test('suppliers: modelled on customers, with their own codes and type', async (t) => {
  const CREATE = `mutation($v: SupplierCreateGLDtoInput!) { createSupplier(input: $v) { code id } }`;
  const a = (await ok(CREATE, { v: { socialName: 'Maderas del Norte S.A.', vatNumber: 'ESA28017895', countryAcronym: 'ES', supplierType: 'BUSINESS', defaultExpenseAccountingAccountId: null } })).createSupplier;
  t.equal(a.code, 'S00001');
  const b = (await ok(CREATE, { v: { socialName: 'Papeles SARL', vatNumber: 'FR40303265045', countryAcronym: 'FR', contacts: [{ name: 'Jean', isDefaultSupplier: true, phones: [{ number: '01 42 68 53 00' }] }] } })).createSupplier;
  t.equal(b.code, 'S00002');
  const r = await ok(`{ suppliers(where: { countryAcronym: { eq: "FR" } }) { nodes { code viesCode vatNumber contacts { isDefaultSupplier phones { number } } } } }`);
  t.same(r.suppliers.nodes, [{ code: 'S00002', viesCode: 'FR', vatNumber: 'FR40303265045', contacts: [{ isDefaultSupplier: true, phones: [{ number: '+33142685300' }] }] }]);
  const sorted = await ok(`{ suppliers(order: [{ socialName: ASC }], first: 1) { totalCount nodes { socialName } } }`);
  t.same([sorted.suppliers.totalCount, sorted.suppliers.nodes[0].socialName], [2, 'Maderas del Norte S.A.']);
  const rest = await api.rest('/suppliers');
  t.same(rest.body.$items.map((i: any) => i.displayed_as), ['S00001 Maderas del Norte S.A.', 'S00002 Papeles SARL']);
  t.equal((await api.rest(`/suppliers/${a.id}`)).body.vat_number, 'ESA28017895');
  const dup = await api.gql(CREATE, { v: { code: 'C00001', socialName: 'Same code as a customer' } });
  t.equal(dup.errors?.[0]?.extensions?.code, 'global.businessErrors.partyCodeAlreadyExists', 'codes are unique across customers and suppliers');
  t.equal((await ok(`mutation($id: UUID!) { deleteSupplier(input: { id: $id }) { id } }`, { id: b.id })).deleteSupplier.id, b.id);
  t.equal((await ok(`{ suppliers { totalCount } }`)).suppliers.totalCount, 1);
  const wrongKind = await api.gql(`mutation($id: UUID!) { deleteCustomer(input: { id: $id }) { id } }`, { id: a.id });
  t.equal(wrongKind.errors?.[0]?.extensions?.code, 'global.businessErrors.partyNotFound', 'deleteCustomer never deletes a supplier');
});

t.test('employees: create, read, filter, update, delete', async (t) => {
  const CREATE = `mutation($v: EmployeeCreateGLDtoInput!) { createEmployee(input: $v) { code id } }`;
  const ana = (await ok(CREATE, { v: { name: 'Ana Gómez', shortName: 'Ana', businessAreaId: businessArea, addresses: [{ firstLine: 'Calle Luna 3', city: 'Sevilla', countryIsoCodeAlpha2: 'ES' }], contacts: [{ name: 'Ana', isDefault: true, emails: [{ emailAddress: 'ana@example.org' }] }] } })).createEmployee;
  const luis = (await ok(CREATE, { v: { name: 'Luis Pérez', status: 'NONE' } })).createEmployee;
  t.same([ana.code, luis.code], ['E00001', 'E00002']);
  const r = await ok(`{ employees(where: { status: { eq: ENABLED } }) { nodes { code name shortName status businessArea { name } addresses { city countryIsoCodeAlpha2 } contacts { emails { emailAddress } } } } }`);
  t.same(r.employees.nodes, [{ code: 'E00001', name: 'Ana Gómez', shortName: 'Ana', status: 'ENABLED', businessArea: { name: 'Retail' }, addresses: [{ city: 'Sevilla', countryIsoCodeAlpha2: 'ES' }], contacts: [{ emails: [{ emailAddress: 'ana@example.org' }] }] }]);
  await ok(`mutation($v: EmployeeUpdateGLDtoInput!) { updateEmployee(input: $v) { id } }`, { v: { id: luis.id, status: 'DISABLED', disabled: true } });
  const sorted = await ok(`{ employees(order: [{ name: DESC }]) { nodes { name status } } }`);
  t.same(sorted.employees.nodes, [{ name: 'Luis Pérez', status: 'DISABLED' }, { name: 'Ana Gómez', status: 'ENABLED' }]);
  t.equal((await api.rest('/employees')).body.$total, 2);
  t.equal((await ok(`mutation($id: UUID!) { deleteEmployee(input: { id: $id }) { id } }`, { id: luis.id })).deleteEmployee.id, luis.id);
  t.equal((await ok(`{ employees { totalCount } }`)).employees.totalCount, 1);
  const inUse = await api.gql(`mutation($id: UUID!) { deleteBusinessArea(input: { id: $id }) { id } }`, { id: businessArea });
  t.equal(inUse.errors?.[0]?.extensions?.code, 'global.businessErrors.sharedSettingInUse', 'a business area parties use cannot be deleted');
});

t.test('an accountant may manage customers but not employees', async (t) => {
  const email = 'accountant-parties@example.com';
  await api.service.identity.createUser(api.organisationId, email, 'a-long-password', 'accountant');
  const token = await api.service.identity.issueToken(api.organisationId, email, api.clientId, 'full_access');
  const headers = { Authorization: `Bearer ${token.access_token}`, 'X-Site': api.organisationId };
  t.equal((await api.gql(CREATE_CUSTOMER, { v: { socialName: 'Del contable' } }, headers)).errors, undefined);
  const r = await api.gql(`mutation { createEmployee(input: { name: "Nope" }) { id } }`, undefined, headers);
  t.equal(r.errors?.[0]?.extensions?.code, 'AUTH_NOT_AUTHORIZED');
});

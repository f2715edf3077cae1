/** Customers, suppliers and employees as Sage clients write them (pm-008, 009, 029, 033, 049..053, 098..106; hp-005, 006; s1-068). */
import { assert, nodesOf, onlyNode, deletion, type SageOperation } from './operation.ts';

const CUSTOMER_FRAGMENT = `fragment CustomerFields on Customer {
  id code socialName tradeName documentId vatNumber countryAcronym disabled
  addresses { id firstLine secondLine city province zipCode countryIsoCodeAlpha2 }
  contacts { id isDefault courtesy name surname phones { id isDefault number type } emails { id emailAddress usage isDefault } socialMedias { id name link } }
}`;
// No `first`, as Sage sends it: the id filter bounds the list to one row in the cost analysis.
const CUSTOMER_BY_ID = `query customerById($id: UUID!) { customers(where: { id: { eq: $id } }) { edges { node { ...CustomerFields } } } } ${CUSTOMER_FRAGMENT}`;
const SUPPLIER_BY_ID = `query supplierById($id: UUID!) { suppliers(where: { id: { eq: $id } }) { edges { node { id code socialName gdprApplied addresses { id firstLine city } contacts { name emails { emailAddress usage } phones { number type } } } } } }`;
const EMPLOYEE_BY_ID = `query employeeById($id: UUID!) { employees(where: { id: { eq: $id } }) { edges { node { id code name shortName comments gdprApplied addresses { firstLine city zipCode countryIsoCodeAlpha2 } } } } }`;

/** A third party with everything pm-049/hp-005 send: addresses, and a contact with EMPTY phone type and e-mail usage. */
const party = (socialName: string, email: string) => ({
  documentId: 'B12345674', vatNumber: 'ESB12345674', socialName, tradeName: `${socialName} (tienda)`,
  addresses: [{ firstLine: 'Calle Mayor 1', secondLine: '2º B', city: 'Madrid', province: 'Madrid', zipCode: '28013', countryIsoCodeAlpha2: 'ES' }],
  contacts: [{ isDefault: true, courtesy: 'MR', name: 'Juan', surname: 'Pérez',
    phones: [{ isDefault: true, number: '+34912345678', type: 'EMPTY' }],
    emails: [{ emailAddress: email, usage: 'EMPTY', isDefault: true }],
    socialMedias: [{ name: 'web', link: 'https://ferreteria.example' }] }],
});

export const PARTIES: SageOperation[] = [
  {
    name: 'createCustomer with contacts, phones EMPTY, emails EMPTY; result {id code} (pm-049, pm-050, hp-005)',
    query: `mutation createCustomer($values: CustomerCreateGLDtoInput!) { createCustomer(input: $values) { id code } }`,
    variables: () => ({ values: party('Ferretería Centro S.L.', 'juan@ferreteria.example') }),
    expect(data, ctx) {
      assert.ok(data.createCustomer.code, 'a code is generated');
      ctx.customerId = data.createCustomer.id;
      ctx.customerCode = data.createCustomer.code;
    },
  },
  {
    name: 'customers filtered through contacts⇉emails.emailAddress, read through a Customer fragment (pm-009, pm-029)',
    query: `query customers($email: String!) { customers(where: { contacts: { some: { emails: { some: { emailAddress: { eq: $email } } } } } }, first: 5) { totalCount edges { node { ...CustomerFields } } } } ${CUSTOMER_FRAGMENT}`,
    variables: () => ({ email: 'juan@ferreteria.example' }),
    expect(data, ctx) {
      const customer = onlyNode(data.customers);
      assert.equal(customer.id, ctx.customerId);
      assert.equal(customer.code, ctx.customerCode);
      const [contact] = customer.contacts;
      assert.deepEqual([contact.courtesy, contact.phones[0].type, contact.emails[0].usage], ['MR', 'EMPTY', 'EMPTY']);
      ctx.customerAddressId = customer.addresses[0].id;
      ctx.customerContactId = contact.id;
      ctx.customerEmailId = contact.emails[0].id;
    },
  },
  {
    name: 'customers filtered by code, socialName contains, disabled (pm-008)',
    query: `query customers($code: String!) { customers(where: { code: { eq: $code }, socialName: { contains: "Ferretería" }, disabled: { eq: false } }) { edges { node { id } } } }`,
    variables: (ctx) => ({ code: ctx.customerCode }),
    expect(data, ctx) { assert.equal(onlyNode(data.customers).id, ctx.customerId); },
  },
  {
    name: 'updateCustomer: an address modified by id with requestedAction MODIFY (pm-052)',
    query: `mutation updateCustomer($values: CustomerUpdateGLDtoInput!) { updateCustomer(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.customerId, addresses: [{ id: ctx.customerAddressId, requestedAction: 'MODIFY', firstLine: 'Gran Vía 28' }] } }),
    expect(data, ctx) { assert.equal(data.updateCustomer.id, ctx.customerId); },
  },
  {
    name: 'the customer read by id: the address changed in place, the rest kept',
    query: CUSTOMER_BY_ID,
    variables: (ctx) => ({ id: ctx.customerId }),
    expect(data, ctx) {
      const customer = onlyNode(data.customers);
      assert.deepEqual(customer.addresses.map((a: any) => [a.id, a.firstLine, a.city]), [[ctx.customerAddressId, 'Gran Vía 28', 'Madrid']]);
      assert.equal(customer.contacts[0].emails.length, 1);
    },
  },
  {
    name: 'updateCustomer as HP sends it: root code + requestedAction, contact and e-mail by id + MODIFY, a new e-mail with CREATE (hp-006)',
    query: `mutation updateCustomer($values: CustomerUpdateGLDtoInput!) { updateCustomer(input: $values) { id } }`,
    variables: (ctx) => ({ values: {
      id: ctx.customerId, code: ctx.customerCode, requestedAction: 'MODIFY', socialName: 'Ferretería Centro S.L.', tradeName: 'Ferretería Centro',
      contacts: [{ id: ctx.customerContactId, requestedAction: 'MODIFY', name: 'Juan Carlos',
        emails: [
          { id: ctx.customerEmailId, requestedAction: 'MODIFY', emailAddress: 'jc@ferreteria.example', usage: 'EMPTY', isDefault: true },
          { requestedAction: 'CREATE', emailAddress: 'pagos@ferreteria.example', usage: 'PAYMENTS', isDefault: false },
        ] }],
    } }),
    expect(data, ctx) { assert.equal(data.updateCustomer.id, ctx.customerId); },
  },
  {
    name: 'the customer read by id: contact renamed, e-mail modified in place, one added',
    query: CUSTOMER_BY_ID,
    variables: (ctx) => ({ id: ctx.customerId }),
    expect(data, ctx) {
      const customer = onlyNode(data.customers);
      assert.equal(customer.tradeName, 'Ferretería Centro');
      assert.equal(customer.contacts.length, 1);
      assert.equal(customer.contacts[0].name, 'Juan Carlos');
      const emails = customer.contacts[0].emails.map((e: any) => [e.emailAddress, e.usage]).sort();
      assert.deepEqual(emails, [['jc@ferreteria.example', 'EMPTY'], ['pagos@ferreteria.example', 'PAYMENTS']]);
      assert.ok(customer.contacts[0].emails.some((e: any) => e.id === ctx.customerEmailId && e.emailAddress === 'jc@ferreteria.example'));
    },
  },
  {
    name: 'createAccountingEntryUsingCodes with thirdCode: the customer on its account (pm-062, s1-037)',
    query: `mutation createAccountingEntryUsingCodes($values: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $values) { id number } }`,
    variables: (ctx) => ({ values: {
      description: 'Cobro Ferretería Centro', date: `${ctx.year}-03-01`, documentDate: `${ctx.year}-03-01`, documentNumber: 'C-0301', journalTypeCode: 'BK2',
      accountingEntryLines: [
        { subAccountCode: '5720000', description: 'Cobro', debitAmount: 300, creditAmount: 0 },
        { subAccountCode: '4300001', thirdCode: ctx.customerCode, description: 'Cobro', debitAmount: 0, creditAmount: 300 },
      ],
    } }),
    expect(data, ctx) { ctx.customerEntryId = data.createAccountingEntryUsingCodes.id; },
  },
  {
    name: 'the entry lines name the customer as accountingEntryThirdParty: code, origin, id and its current data (§5, pm-015..032 selections)',
    query: `query accountingEntries($id: UUID!) { accountingEntries(where: { id: { eq: $id } }) { edges { node { id accountingEntryLines { subAccountId subAccount { code } accountingEntryThirdParty { code origin thirdPartyId socialName vatNumber documentId } } } } } }`,
    variables: (ctx) => ({ id: ctx.customerEntryId }),
    expect(data, ctx) {
      const lines = onlyNode(data.accountingEntries).accountingEntryLines;
      assert.deepEqual(lines.map((l: any) => [l.subAccount.code, l.accountingEntryThirdParty]), [['5720000', null], ['4300001', {
        code: ctx.customerCode, origin: 'CUSTOMER', thirdPartyId: ctx.customerId, socialName: 'Ferretería Centro S.L.', vatNumber: 'ESB12345674', documentId: 'B12345674',
      }]]);
      ctx.customerAccountId = lines[1].subAccountId;
    },
  },
  {
    name: "createAccountingEntryUsingIds with thirdId: the line keeps the customer's code (pm-067)",
    query: `mutation createAccountingEntryUsingIds($values: AccountingEntryCreateUsingIdsGLDtoInput!) { createAccountingEntryUsingIds(input: $values) { id number } }`,
    variables: (ctx) => ({ values: {
      description: 'Cobro por ids', date: `${ctx.year}-03-02`, documentDate: `${ctx.year}-03-02`, documentNumber: 'C-0302', journalTypeId: ctx.journalTypeId,
      accountingEntryLines: [
        { subAccountId: ctx.bankAccountId, description: 'Cobro', debitAmount: 40, creditAmount: 0 },
        { subAccountId: ctx.customerAccountId, thirdId: ctx.customerId, description: 'Cobro', debitAmount: 0, creditAmount: 40 },
      ],
    } }),
    expect(data, ctx) { ctx.customerEntryByIdsId = data.createAccountingEntryUsingIds.id; },
  },
  {
    name: 'accountingEntryLines filtered by accountingEntryThirdParty.code (pm-015..038): both postings, by code and by id',
    query: `query accountingEntryLines($code: String!) { accountingEntryLines(where: { accountingEntryThirdParty: { code: { eq: $code } } }, order: [{ accountingEntry: { date: ASC } }]) { totalCount edges { node { accountingEntryId accountingEntryThirdParty { code origin } } } } }`,
    variables: (ctx) => ({ code: ctx.customerCode }),
    expect(data, ctx) {
      const lines = nodesOf(data.accountingEntryLines);
      assert.deepEqual(lines.map((l) => [l.accountingEntryId, l.accountingEntryThirdParty.code, l.accountingEntryThirdParty.origin]), [
        [ctx.customerEntryId, ctx.customerCode, 'CUSTOMER'], [ctx.customerEntryByIdsId, ctx.customerCode, 'CUSTOMER'],
      ]);
    },
  },
  {
    name: "accountingEntries filtered by a line's third party origin (pm-015..032)",
    query: `query accountingEntries { accountingEntries(where: { accountingEntryLines: { some: { accountingEntryThirdParty: { origin: { eq: CUSTOMER } } } } }, order: [{ date: ASC }]) { totalCount edges { node { id } } } }`,
    expect(data, ctx) { assert.deepEqual(nodesOf(data.accountingEntries).map((e) => e.id), [ctx.customerEntryId, ctx.customerEntryByIdsId]); },
  },
  {
    name: 'updateCustomer: an e-mail removed with requestedAction DELETE, as HP sends it with a copy of the item (hp-006, §1.9)',
    query: `mutation updateCustomer($values: CustomerUpdateGLDtoInput!) { updateCustomer(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.customerId, contacts: [{ id: ctx.customerContactId, requestedAction: 'MODIFY',
      emails: [{ id: ctx.customerEmailId, requestedAction: 'DELETE', emailAddress: 'jc@ferreteria.example', usage: 'EMPTY', isDefault: true }] }] } }),
    expect(data, ctx) { assert.equal(data.updateCustomer.id, ctx.customerId); },
  },
  {
    name: 'the customer read by id: only the added e-mail is left',
    query: CUSTOMER_BY_ID,
    variables: (ctx) => ({ id: ctx.customerId }),
    expect(data) { assert.deepEqual(onlyNode(data.customers).contacts[0].emails.map((e: any) => e.emailAddress), ['pagos@ferreteria.example']); },
  },
  {
    name: 'updateCustomer with replaceAll ADDRESSES: the new list replaces the old (S1 19)',
    query: `mutation updateCustomer($values: CustomerUpdateGLDtoInput!) { updateCustomer(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.customerId, replaceAll: ['ADDRESSES'], addresses: [{ firstLine: 'Avenida del Puerto 9', city: 'Valencia', zipCode: '46023', countryIsoCodeAlpha2: 'ES' }] } }),
    expect(data, ctx) { assert.equal(data.updateCustomer.id, ctx.customerId); },
  },
  {
    name: 'the customer read by id: one address, the new one',
    query: CUSTOMER_BY_ID,
    variables: (ctx) => ({ id: ctx.customerId }),
    expect(data) { assert.deepEqual(onlyNode(data.customers).addresses.map((a: any) => [a.firstLine, a.city]), [['Avenida del Puerto 9', 'Valencia']]); },
  },
  {
    name: 'createCustomer with the fewest fields Sage allows: socialName (§3 non-null fields)',
    query: `mutation createCustomer($values: CustomerCreateGLDtoInput!) { createCustomer(input: $values) { id code } }`,
    variables: () => ({ values: { socialName: 'Cliente de paso' } }),
    expect(data, ctx) { ctx.spareCustomerId = data.createCustomer.id; },
  },
  {
    name: 'customers totalCount, to compare with the aggregate below',
    query: `query customers { customers { totalCount } }`,
    expect(data, ctx) { ctx.customerCount = String(data.customers.totalCount); },
  },
  {
    name: 'aggregate(aggregateFields: ["__count"]) on customers, values as strings (s1-068, §1.7)',
    query: `query customersCount { customers { aggregate(aggregateFields: ["__count"]) { groupValues { name value } aggregates { name value } } } }`,
    expect(data, ctx) {
      assert.deepEqual(data.customers.aggregate, [{ groupValues: [], aggregates: [{ name: '__count', value: ctx.customerCount }] }]);
      assert.ok(Number(ctx.customerCount) >= 2);
    },
  },
  {
    name: 'applyGdprCustomer (ours; S1 02-04 name the GDPR_APPLIED status)',
    query: `mutation applyGdprCustomer($input: CustomerApplyGdprGLDtoInput!) { applyGdprCustomer(input: $input) { id } }`,
    variables: (ctx) => ({ input: { id: ctx.spareCustomerId } }),
    expect(data, ctx) { assert.equal(data.applyGdprCustomer.id, ctx.spareCustomerId); },
  },
  {
    name: 'the customer reads gdprApplied',
    query: `query customerById($id: UUID!) { customers(where: { id: { eq: $id } }) { edges { node { id gdprApplied status } } } }`,
    variables: (ctx) => ({ id: ctx.spareCustomerId }),
    expect(data) { assert.equal(onlyNode(data.customers).gdprApplied, true); },
  },
  ...deletion('Customer', 'customers', 'spareCustomerId', 'pm-053'),
  {
    name: 'createSupplier with phones and e-mails EMPTY (pm-098, pm-099)',
    query: `mutation createSupplier($values: SupplierCreateGLDtoInput!) { createSupplier(input: $values) { id code } }`,
    variables: () => ({ values: party('Suministros Norte S.A.', 'compras@norte.example') }),
    expect(data, ctx) { assert.ok(data.createSupplier.code); ctx.supplierId = data.createSupplier.id; },
  },
  {
    name: 'the supplier read by id',
    query: SUPPLIER_BY_ID,
    variables: (ctx) => ({ id: ctx.supplierId }),
    expect(data, ctx) {
      const supplier = onlyNode(data.suppliers);
      assert.deepEqual(supplier.contacts[0].phones, [{ number: '+34912345678', type: 'EMPTY' }]);
      ctx.supplierAddressId = supplier.addresses[0].id;
    },
  },
  {
    name: 'updateSupplier: an address modified by id with requestedAction MODIFY (pm-101)',
    query: `mutation updateSupplier($values: SupplierUpdateGLDtoInput!) { updateSupplier(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.supplierId, addresses: [{ id: ctx.supplierAddressId, requestedAction: 'MODIFY', firstLine: 'Polígono Norte 4' }] } }),
    expect(data, ctx) { assert.equal(data.updateSupplier.id, ctx.supplierId); },
  },
  {
    name: 'the supplier read by id: the address changed in place',
    query: SUPPLIER_BY_ID,
    variables: (ctx) => ({ id: ctx.supplierId }),
    expect(data, ctx) { assert.deepEqual(onlyNode(data.suppliers).addresses, [{ id: ctx.supplierAddressId, firstLine: 'Polígono Norte 4', city: 'Madrid' }]); },
  },
  {
    name: 'applyGdprSupplier (ours)',
    query: `mutation applyGdprSupplier($input: SupplierApplyGdprGLDtoInput!) { applyGdprSupplier(input: $input) { id } }`,
    variables: (ctx) => ({ input: { id: ctx.supplierId } }),
    expect(data, ctx) { assert.equal(data.applyGdprSupplier.id, ctx.supplierId); },
  },
  {
    name: 'the supplier reads gdprApplied, its contact e-mail erased',
    query: SUPPLIER_BY_ID,
    variables: (ctx) => ({ id: ctx.supplierId }),
    expect(data) {
      const supplier = onlyNode(data.suppliers);
      assert.equal(supplier.gdprApplied, true);
      assert.ok(!JSON.stringify(supplier).includes('compras@norte.example'));
    },
  },
  ...deletion('Supplier', 'suppliers', 'supplierId', 'pm-102'),
  {
    name: 'createEmployee with name, shortName, comments, addresses (pm-105) and a contact with a MOBILE phone (pm-033)',
    query: `mutation createEmployee($values: EmployeeCreateGLDtoInput!) { createEmployee(input: $values) { id code } }`,
    variables: () => ({ values: { name: 'Lucía Martín', shortName: 'Lucía', comments: 'Administración',
      addresses: [{ firstLine: 'Calle Luna 3', city: 'Sevilla', zipCode: '41001', countryIsoCodeAlpha2: 'ES' }],
      contacts: [{ isDefault: true, name: 'Lucía', phones: [{ isDefault: true, number: '+34600111222', type: 'MOBILE' }] }] } }),
    expect(data, ctx) { assert.ok(data.createEmployee.code); ctx.employeeId = data.createEmployee.id; },
  },
  {
    name: 'employees filtered through contacts⇉phones.type (pm-033)',
    query: `query employees { employees(where: { contacts: { some: { phones: { some: { type: { eq: MOBILE } } } } } }) { edges { node { id name } } } }`,
    expect(data, ctx) { assert.deepEqual(nodesOf(data.employees).map((e) => e.id), [ctx.employeeId]); },
  },
  {
    name: 'updateEmployee: id, name (pm-106)',
    query: `mutation updateEmployee($values: EmployeeUpdateGLDtoInput!) { updateEmployee(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.employeeId, name: 'Lucía Martín Ruiz' } }),
    expect(data, ctx) { assert.equal(data.updateEmployee.id, ctx.employeeId); },
  },
  {
    name: 'the employee read by id: renamed, address kept',
    query: EMPLOYEE_BY_ID,
    variables: (ctx) => ({ id: ctx.employeeId }),
    expect(data) {
      const employee = onlyNode(data.employees);
      assert.deepEqual([employee.name, employee.shortName, employee.comments], ['Lucía Martín Ruiz', 'Lucía', 'Administración']);
      assert.deepEqual(employee.addresses, [{ firstLine: 'Calle Luna 3', city: 'Sevilla', zipCode: '41001', countryIsoCodeAlpha2: 'ES' }]);
    },
  },
  {
    name: 'applyGdprEmployee (ours)',
    query: `mutation applyGdprEmployee($input: EmployeeApplyGdprGLDtoInput!) { applyGdprEmployee(input: $input) { id } }`,
    variables: (ctx) => ({ input: { id: ctx.employeeId } }),
    expect(data, ctx) { assert.equal(data.applyGdprEmployee.id, ctx.employeeId); },
  },
  {
    name: 'the employee reads gdprApplied',
    query: EMPLOYEE_BY_ID,
    variables: (ctx) => ({ id: ctx.employeeId }),
    expect(data) { assert.equal(onlyNode(data.employees).gdprApplied, true); },
  },
  ...deletion('Employee', 'employees', 'employeeId', 'pm-106 names it; sent as its own mutation'),
];

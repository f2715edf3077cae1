/**
 * The party, shared-settings and product mutations: names, inputs, results and directives as the spec's
 * table gives them (createEmployee/deleteEmployee DE_FORBIDDEN), plus update and GDPR-erasure mutations
 * in the spec's style. Input SDL is generated from the commands' zod schemas; results are `{ id }`, or
 * `{ code, id }` where the code may be generated (spec 2.8: CustomerOutputCreateGLDto...).
 */
import type { z } from 'zod';
import {
  BusinessAreaCreateInput, CustomerCreateInput, CustomerUpdateInput, EmployeeCreateInput, EmployeeUpdateInput, IdOnly, JobAreaCreateInput,
  PaymentMeanCreateInput, PaymentTermCreateInput, ProductCreateInput, SupplierCreateInput, SupplierUpdateInput,
} from '../../commands/parties/inputs.ts';
import type { MutationSpec } from './mutations.ts';

interface PartyMutation extends MutationSpec {
  /** The result carries the (possibly generated) code too. */
  returnsCode?: boolean;
}

const SHARED = 'active/shared-settings';
const CUSTOMER = 'active/customer';
const SUPPLIER = 'active/supplier';
const EMPLOYEE = 'active/employee';
const PRODUCT = 'active/product';

/** One row: `create` + `BusinessArea` -> createBusinessArea(input: BusinessAreaCreateGLDtoInput!): BusinessAreaOutputCreateGLDto. */
function m(
  verb: 'create' | 'update' | 'delete' | 'applyGdpr',
  entity: string,
  schema: z.ZodType,
  feature: MutationSpec['feature'],
  access: [name: string, resource: string, action: MutationSpec['accessControl']['action']],
  run: MutationSpec['run'],
  extra: Partial<PartyMutation> = {},
): PartyMutation {
  const suffix = { create: 'Create', update: 'Update', delete: 'Delete', applyGdpr: 'ApplyGdpr' }[verb];
  return {
    name: `${verb}${entity}`, input: `${entity}${suffix}GLDtoInput`, output: `${entity}Output${suffix}GLDto`, schema, feature,
    accessControl: { name: access[0], resource: access[1], action: access[2] }, filter: 'NO_FILTER', run, ...extra,
  };
}

const id = (entity: string, verb: string) => IdOnly(`${entity}${verb}GLDtoInput`);

export const PARTY_MUTATIONS: PartyMutation[] = [
  m('create', 'Customer', CustomerCreateInput, 'CORE', ['add-customer', CUSTOMER, 'add'], (d, c, i) => d.parties.createCustomer(c, i), { returnsCode: true }),
  m('update', 'Customer', CustomerUpdateInput, 'CORE', ['update-customer', CUSTOMER, 'update'], (d, c, i) => d.parties.updateCustomer(c, i)),
  m('delete', 'Customer', id('Customer', 'Delete'), 'CORE', ['delete-customer', CUSTOMER, 'delete'], (d, c, i) => d.parties.deleteCustomer(c, i)),
  // Erasure is a legal right: CORE, never country-filtered, and it needs the right to delete the party.
  m('applyGdpr', 'Customer', id('Customer', 'ApplyGdpr'), 'CORE', ['delete-customer', CUSTOMER, 'delete'], (d, c, i) => d.parties.applyGdprCustomer(c, i)),
  m('create', 'Supplier', SupplierCreateInput, 'CORE', ['add-supplier', SUPPLIER, 'add'], (d, c, i) => d.parties.createSupplier(c, i), { returnsCode: true }),
  m('update', 'Supplier', SupplierUpdateInput, 'CORE', ['update-supplier', SUPPLIER, 'update'], (d, c, i) => d.parties.updateSupplier(c, i)),
  m('delete', 'Supplier', id('Supplier', 'Delete'), 'CORE', ['delete-supplier', SUPPLIER, 'delete'], (d, c, i) => d.parties.deleteSupplier(c, i)),
  m('applyGdpr', 'Supplier', id('Supplier', 'ApplyGdpr'), 'CORE', ['delete-supplier', SUPPLIER, 'delete'], (d, c, i) => d.parties.applyGdprSupplier(c, i)),
  m('create', 'Employee', EmployeeCreateInput, 'EMPLOYEE_MANAGEMENT', ['add-employee', EMPLOYEE, 'add'], (d, c, i) => d.parties.createEmployee(c, i), { returnsCode: true, filter: 'DE_FORBIDDEN' }),
  m('update', 'Employee', EmployeeUpdateInput, 'EMPLOYEE_MANAGEMENT', ['update-employee', EMPLOYEE, 'update'], (d, c, i) => d.parties.updateEmployee(c, i), { filter: 'DE_FORBIDDEN' }),
  m('delete', 'Employee', id('Employee', 'Delete'), 'EMPLOYEE_MANAGEMENT', ['delete-employee', EMPLOYEE, 'delete'], (d, c, i) => d.parties.deleteEmployee(c, i), { filter: 'DE_FORBIDDEN' }),
  m('applyGdpr', 'Employee', id('Employee', 'ApplyGdpr'), 'CORE', ['delete-employee', EMPLOYEE, 'delete'], (d, c, i) => d.parties.applyGdprEmployee(c, i)),
  m('create', 'BusinessArea', BusinessAreaCreateInput, 'CORE', ['add-shared-settings', SHARED, 'add'], (d, c, i) => d.settings.createBusinessArea(c, i)),
  m('delete', 'BusinessArea', id('BusinessArea', 'Delete'), 'CORE', ['delete-shared-settings', SHARED, 'delete'], (d, c, i) => d.settings.deleteBusinessArea(c, i)),
  m('create', 'JobArea', JobAreaCreateInput, 'CORE', ['add-shared-settings', SHARED, 'add'], (d, c, i) => d.settings.createJobArea(c, i)),
  m('create', 'PaymentMean', PaymentMeanCreateInput, 'CORE', ['add-shared-settings', SHARED, 'add'], (d, c, i) => d.settings.createPaymentMean(c, i)),
  m('delete', 'PaymentMean', id('PaymentMean', 'Delete'), 'CORE', ['delete-shared-settings', SHARED, 'delete'], (d, c, i) => d.settings.deletePaymentMean(c, i)),
  m('create', 'PaymentTerm', PaymentTermCreateInput, 'CORE', ['add-shared-settings', SHARED, 'add'], (d, c, i) => d.settings.createPaymentTerm(c, i)),
  m('delete', 'PaymentTerm', id('PaymentTerm', 'Delete'), 'CORE', ['delete-shared-settings', SHARED, 'delete'], (d, c, i) => d.settings.deletePaymentTerm(c, i)),
  m('create', 'Product', ProductCreateInput, 'SALES', ['add-product', PRODUCT, 'add'], (d, c, i) => d.settings.createProduct(c, i)),
  m('delete', 'Product', id('Product', 'Delete'), 'SALES', ['delete-product', PRODUCT, 'delete'], (d, c, i) => d.settings.deleteProduct(c, i)),
];

/** Result types of the mutations above (their input types are generated with every mutation's, in mutations.ts). */
export function partyMutationTypesSdl(): string {
  return `${PARTY_MUTATIONS.map((x) => `type ${x.output} {${x.returnsCode ? ' code: String!' : ''} id: UUID! }`).join('\n')}\n`;
}

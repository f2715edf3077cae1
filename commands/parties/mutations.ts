/** The party mutations (spec 2.6): customers, suppliers, employees, with GDPR erasure in the spec's style. */
import { mutation, type MutationSpec } from '../mutation.ts';
import type { CommandServices } from '../services.ts';
import { PartyCommands } from './handlers.ts';
import {
  CustomerCreateInput, CustomerUpdateInput, EmployeeCreateInput, EmployeeUpdateInput, IdOnly, SupplierCreateInput, SupplierUpdateInput,
} from './inputs.ts';

const parties = (s: CommandServices) => new PartyCommands(s, s.keys);

const CUSTOMER = 'active/customer';
const SUPPLIER = 'active/supplier';
const EMPLOYEE = 'active/employee';

const id = (entity: string, verb: string) => IdOnly(`${entity}${verb}GLDtoInput`);

export const PARTY_MUTATIONS: MutationSpec[] = [
  mutation('create', 'Customer', CustomerCreateInput, 'CORE', ['add-customer', CUSTOMER, 'add'], (s, c, i) => parties(s).createCustomer(c, i), { returns: { code: true } }),
  mutation('update', 'Customer', CustomerUpdateInput, 'CORE', ['update-customer', CUSTOMER, 'update'], (s, c, i) => parties(s).updateCustomer(c, i)),
  mutation('delete', 'Customer', id('Customer', 'Delete'), 'CORE', ['delete-customer', CUSTOMER, 'delete'], (s, c, i) => parties(s).deleteCustomer(c, i)),
  // Erasure is a legal right: CORE, never country-filtered, and it needs the right to delete the party.
  mutation('applyGdpr', 'Customer', id('Customer', 'ApplyGdpr'), 'CORE', ['delete-customer', CUSTOMER, 'delete'], (s, c, i) => parties(s).applyGdprCustomer(c, i)),
  mutation('create', 'Supplier', SupplierCreateInput, 'CORE', ['add-supplier', SUPPLIER, 'add'], (s, c, i) => parties(s).createSupplier(c, i), { returns: { code: true } }),
  mutation('update', 'Supplier', SupplierUpdateInput, 'CORE', ['update-supplier', SUPPLIER, 'update'], (s, c, i) => parties(s).updateSupplier(c, i)),
  mutation('delete', 'Supplier', id('Supplier', 'Delete'), 'CORE', ['delete-supplier', SUPPLIER, 'delete'], (s, c, i) => parties(s).deleteSupplier(c, i)),
  mutation('applyGdpr', 'Supplier', id('Supplier', 'ApplyGdpr'), 'CORE', ['delete-supplier', SUPPLIER, 'delete'], (s, c, i) => parties(s).applyGdprSupplier(c, i)),
  mutation('create', 'Employee', EmployeeCreateInput, 'EMPLOYEE_MANAGEMENT', ['add-employee', EMPLOYEE, 'add'], (s, c, i) => parties(s).createEmployee(c, i), { returns: { code: true }, filter: 'DE_FORBIDDEN' }),
  mutation('update', 'Employee', EmployeeUpdateInput, 'EMPLOYEE_MANAGEMENT', ['update-employee', EMPLOYEE, 'update'], (s, c, i) => parties(s).updateEmployee(c, i), { filter: 'DE_FORBIDDEN' }),
  mutation('delete', 'Employee', id('Employee', 'Delete'), 'EMPLOYEE_MANAGEMENT', ['delete-employee', EMPLOYEE, 'delete'], (s, c, i) => parties(s).deleteEmployee(c, i), { filter: 'DE_FORBIDDEN' }),
  mutation('applyGdpr', 'Employee', id('Employee', 'ApplyGdpr'), 'CORE', ['delete-employee', EMPLOYEE, 'delete'], (s, c, i) => parties(s).applyGdprEmployee(c, i)),
];


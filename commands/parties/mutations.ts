/** The party mutations (spec 2.6): customers, suppliers, employees, with GDPR erasure in the spec's style. */
import { mutation, type MutationSpec } from '../mutation.ts';
import { createParty, updateParty } from './create-update.ts';
import { deleteParty } from './deletion.ts';
import { applyGdpr } from './erasure.ts';
import {
  CustomerCreateInput, CustomerUpdateInput, EmployeeCreateInput, EmployeeUpdateInput, IdOnly, SupplierCreateInput, SupplierUpdateInput,
} from './inputs.ts';

const CUSTOMER = 'active/customer';
const SUPPLIER = 'active/supplier';
const EMPLOYEE = 'active/employee';

const id = (entity: string, verb: string) => IdOnly(`${entity}${verb}GLDtoInput`);

export const PARTY_MUTATIONS: MutationSpec[] = [
  mutation('create', 'Customer', CustomerCreateInput, 'CORE', ['add-customer', CUSTOMER, 'add'], createParty('customer', CustomerCreateInput), { returns: { code: true } }),
  mutation('update', 'Customer', CustomerUpdateInput, 'CORE', ['update-customer', CUSTOMER, 'update'], updateParty('customer', CustomerUpdateInput)),
  mutation('delete', 'Customer', id('Customer', 'Delete'), 'CORE', ['delete-customer', CUSTOMER, 'delete'], deleteParty('customer')),
  // Erasure is a legal right: CORE, never country-filtered, and it needs the right to delete the party.
  mutation('applyGdpr', 'Customer', id('Customer', 'ApplyGdpr'), 'CORE', ['delete-customer', CUSTOMER, 'delete'], applyGdpr('customer')),
  mutation('create', 'Supplier', SupplierCreateInput, 'CORE', ['add-supplier', SUPPLIER, 'add'], createParty('supplier', SupplierCreateInput), { returns: { code: true } }),
  mutation('update', 'Supplier', SupplierUpdateInput, 'CORE', ['update-supplier', SUPPLIER, 'update'], updateParty('supplier', SupplierUpdateInput)),
  mutation('delete', 'Supplier', id('Supplier', 'Delete'), 'CORE', ['delete-supplier', SUPPLIER, 'delete'], deleteParty('supplier')),
  mutation('applyGdpr', 'Supplier', id('Supplier', 'ApplyGdpr'), 'CORE', ['delete-supplier', SUPPLIER, 'delete'], applyGdpr('supplier')),
  mutation('create', 'Employee', EmployeeCreateInput, 'EMPLOYEE_MANAGEMENT', ['add-employee', EMPLOYEE, 'add'], createParty('employee', EmployeeCreateInput), { returns: { code: true }, filter: 'DE_FORBIDDEN' }),
  mutation('update', 'Employee', EmployeeUpdateInput, 'EMPLOYEE_MANAGEMENT', ['update-employee', EMPLOYEE, 'update'], updateParty('employee', EmployeeUpdateInput), { filter: 'DE_FORBIDDEN' }),
  mutation('delete', 'Employee', id('Employee', 'Delete'), 'EMPLOYEE_MANAGEMENT', ['delete-employee', EMPLOYEE, 'delete'], deleteParty('employee'), { filter: 'DE_FORBIDDEN' }),
  mutation('applyGdpr', 'Employee', id('Employee', 'ApplyGdpr'), 'CORE', ['delete-employee', EMPLOYEE, 'delete'], applyGdpr('employee')),
];


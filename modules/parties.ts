/** Parties: customers, suppliers and employees, whose personal data is sealed by each one's key. */
import { PartiesAggregate } from '../commands/parties/aggregates.ts';
import { PARTY_MUTATIONS } from '../commands/parties/mutations.ts';
import * as enums from '../domain/parties/enums.ts';
import { PARTY_MESSAGES } from '../domain/parties/errors.ts';
import { PARTY_EVENT_TYPES } from '../domain/parties/parties.ts';
import { PROJECTIONS } from '../projections/parties/projections.ts';
import { PARTY_RESOURCES } from '../projections/parties/read-models.ts';
import { PARTY_EVENTS } from '../eventqueue/parties/events.ts';
import { defineModule } from './module.ts';

export const parties = defineModule({
  name: 'parties',
  aggregates: [{ ...PartiesAggregate, eventTypes: PARTY_EVENT_TYPES }],
  enums: {
    CustomerType: enums.CustomerType,
    CustomerStatus: enums.CustomerStatus,
    SupplierType: enums.SupplierType,
    SupplierStatus: enums.SupplierStatus,
    EmployeeStatus: enums.EmployeeStatus,
    LanguageType: enums.LanguageType,
    Courtesy: enums.Courtesy,
    EmailUsage: enums.EmailUsage,
    PhoneType: enums.PhoneType,
    RequestedAction: enums.RequestedAction,
    PartyCollection: enums.PartyCollection,
    ContactCollection: enums.ContactCollection,
  },
  mutations: PARTY_MUTATIONS,
  resources: PARTY_RESOURCES,
  projections: PROJECTIONS,
  events: PARTY_EVENTS,
  errors: PARTY_MESSAGES,
  grants: {
    'active/customer': ['admin', 'accountant'],
    'active/supplier': ['admin', 'accountant'],
    // Employees are personal data: administrators only.
    'active/employee': ['admin'],
  },
});

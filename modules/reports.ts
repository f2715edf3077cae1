/**
 * Reports, analytics and the auditor's trail: query roots over the balances the entries projection keeps
 * (trial balance, third-party balance, balance sheet, P&L, report positions, KPIs), the aggregation and list
 * catalogs, and the event store's hash-chain head. It records no events of its own: the ledger's are its input.
 */
import { ANALYTICS } from '../api/graphql/analytics/index.ts';
import { AUDIT_CHAIN } from '../api/graphql/audit-chain.ts';
import { ACCOUNTING_REPORTS } from '../api/graphql/reports/index.ts';
import { defineModule } from './module.ts';

export const reports = defineModule({
  name: 'reports',
  aggregates: [],
  enums: {},
  mutations: [],
  resources: [],
  projections: [],
  events: {},
  errors: {},
  grants: {},
  queries: [ACCOUNTING_REPORTS, ANALYTICS, AUDIT_CHAIN],
});

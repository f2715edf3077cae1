/**
 * The chart projection's reads that depend on an account's internal nature (hidden column `nature`) or on
 * its organisation's country, for events stored with our first values (domain/accounting/account-nature.ts).
 */
import { PLAIN_SUB_ACCOUNT_TYPE, AccountNature } from '../../domain/accounting/enums.ts';
import { offBalanceAccountType } from '../../domain/accounting/account-nature.ts';
import { OrganisationCountry } from '../../domain/enums.ts';
import type { Writes } from '../engine/writes.ts';
import { AccountingAccount } from './read-models.ts';

const caseOf = (column: string, pairs: [string, string][]) =>
  `CASE ${column} ${pairs.map(([k, v]) => `WHEN '${k}' THEN '${v}'`).join(' ')} ELSE 'UNDEFINED' END`;

/** The sub-type of no particular role for the row's nature (an update stored with our first GENERAL). */
export function plainSubAccountTypeOf(w: Writes, table: string, accountId: string): void {
  const plain = caseOf('nature', AccountNature.map((n) => [n, PLAIN_SUB_ACCOUNT_TYPE[n]]));
  w.sql(`UPDATE ${table} SET sub_account_type = ${plain} WHERE id = $1`, [accountId], { resource: AccountingAccount, table, fields: ['id'] });
}

/**
 * An off-balance account of no stated statement (our first OFF_BALANCE) reads its country's. The country is
 * read from the organisation's first event, which the store always holds (no other projection's table).
 */
export function offBalanceAccountTypeOf(w: Writes, table: string, accountId: string, organisationId: string): void {
  const country = `(SELECT e.data->>'country' FROM es_events e WHERE e.stream_id = $2 AND e.event_type = 'OrganisationCreated' LIMIT 1)`;
  const type = caseOf(country, OrganisationCountry.map((c) => [c, offBalanceAccountType(c)]));
  w.sql(`UPDATE ${table} SET account_type = ${type} WHERE id = $1 AND nature = 'OFF_BALANCE' AND account_type = 'UNDEFINED'`,
    [accountId, `Organisation-${organisationId}`], { resource: AccountingAccount, table, fields: ['id'] });
}

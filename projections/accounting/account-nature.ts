/**
 * The chart projection's reads that depend on an account's internal nature (hidden column `nature`) or on
 * its organisation's country, for events stored with our first values (domain/accounting/account-nature.ts).
 */
import { PLAIN_SUB_ACCOUNT_TYPE, AccountNature } from '../../domain/accounting/enums.ts';
import { offBalanceAccountType } from '../../domain/accounting/account-nature.ts';
import { OrganisationCountry } from '../../domain/enums.ts';
import type { Writes } from '../engine/writes.ts';
import { Organisation } from './organisation.ts';
import { AccountingAccount } from './read-models.ts';

const caseOf = (column: string, pairs: [string, string][]) =>
  `CASE ${column} ${pairs.map(([k, v]) => `WHEN '${k}' THEN '${v}'`).join(' ')} ELSE 'UNDEFINED' END`;

/** The sub-type of no particular role for the row's nature (an update stored with our first GENERAL). */
export function plainSubAccountTypeOf(w: Writes, table: string, accountId: string): void {
  const plain = caseOf('nature', AccountNature.map((n) => [n, PLAIN_SUB_ACCOUNT_TYPE[n]]));
  w.sql(`UPDATE ${table} SET sub_account_type = ${plain} WHERE id = $1`, [accountId], { resource: AccountingAccount, table, fields: ['id'] });
}

/**
 * An off-balance account stored with our first OFF_BALANCE (its upcaster marks it offBalanceByCountry) reads its country's, from the
 * organisations read model: not the event store, which may be KurrentDB, beside no SQL at all. The
 * organisation's row is there before any of its accounts: OrganisationCreated is its first event, applied
 * in the same transaction by the live daemon, and the organisations projection comes first in a rebuild of all.
 */
export function offBalanceAccountTypeOf(w: Writes, table: string, accountId: string, organisationId: string): void {
  const country = `(SELECT o.country FROM ${Organisation.table} o WHERE o.id = $2)`;
  const type = caseOf(country, OrganisationCountry.map((c) => [c, offBalanceAccountType(c)]));
  w.sql(`UPDATE ${table} SET account_type = ${type} WHERE id = $1`,
    [accountId, organisationId], { resource: AccountingAccount, table, fields: ['id'] });
}

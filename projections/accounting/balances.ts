/**
 * Balances kept by the entries projection: sums of the entry lines' debits and credits by account and period, by
 * account and day, by third party, account and period, each equal at every commit to a GROUP BY over
 * accounting_entry_lines (the lines' `sums`, projections/engine/sums.ts); and the deleted lines (tombstones), with
 * when they were deleted, so that reports can take the books as they stood at an earlier moment (current - lines
 * recorded since + lines deleted since).
 *
 * Tables of the entries projection (rebuilt, versioned and swapped with the lines), with no query and no REST
 * collection: no GraphQL type or REST item derives from them; reports read them in SQL.
 */
import { AccountingEntryType } from '../../domain/accounting/enums.ts';
import { ThirdPartyOrigin } from '../../domain/accounting/ledger.ts';
import { f, type Resource, type SumSpec } from '../engine/resource.ts';

const amounts = () => [f.decimal('debitAmount'), f.decimal('creditAmount'), f.int('lineCount')];
const entryType = () => f.enum('entryType', 'AccountingEntryType', AccountingEntryType);

export const AccountPeriodBalance: Resource = {
  typeName: 'AccountPeriodBalance',
  table: 'account_period_balances',
  scope: 'organisation',
  primaryKey: ['organisationId', 'accountingExerciseId', 'accountingPeriodId', 'subAccountId', 'entryType'],
  fields: [f.uuid('accountingExerciseId'), f.uuid('accountingPeriodId'), f.uuid('subAccountId'), entryType(), ...amounts()],
};

/** Partial periods (a report from the 10th to the 20th) and day-grain analytics. */
export const AccountDayBalance: Resource = {
  typeName: 'AccountDayBalance',
  table: 'account_day_balances',
  scope: 'organisation',
  primaryKey: ['organisationId', 'date', 'subAccountId', 'entryType', 'accountingExerciseId'],
  fields: [f.uuid('accountingExerciseId'), f.date('date'), f.uuid('subAccountId'), entryType(), ...amounts()],
};

/** Lines with a third party only. */
export const PartyPeriodBalance: Resource = {
  typeName: 'PartyPeriodBalance',
  table: 'party_period_balances',
  scope: 'organisation',
  primaryKey: ['organisationId', 'accountingExerciseId', 'accountingPeriodId', 'thirdPartyId', 'subAccountId', 'entryType', 'thirdPartyOrigin'],
  fields: [
    f.uuid('accountingExerciseId'), f.uuid('accountingPeriodId'), f.enum('thirdPartyOrigin', 'OriginType', ThirdPartyOrigin), f.uuid('thirdPartyId'),
    f.uuid('subAccountId'), entryType(), ...amounts(),
  ],
};

/** A deleted line's balance key and amounts, when it was recorded and when it was deleted (the deletion's recordedAt). */
export const DeletedEntryLine: Resource = {
  typeName: 'DeletedEntryLine',
  table: 'deleted_entry_lines',
  scope: 'organisation',
  // Not by id alone: a line id posted again after its deletion and deleted again is kept twice.
  primaryKey: ['organisationId', 'id', 'deletedAt'],
  indexes: [['organisation_id', 'deleted_at']],
  fields: [
    f.uuid('id'), f.uuid('accountingEntryId'), f.date('date'), f.uuid('accountingExerciseId'), f.uuid('accountingPeriodId'), f.uuid('subAccountId'),
    entryType(), f.enum('thirdPartyOrigin', 'OriginType', ThirdPartyOrigin), f.uuid('thirdPartyId'), f.decimal('debitAmount'), f.decimal('creditAmount'),
    f.dateTime('recordedAt'), f.dateTime('deletedAt'),
  ],
};

const AMOUNTS = ['debitAmount', 'creditAmount'] as const;

/** What the lines keep summed (AccountingEntryLine.sums). */
export const LINE_BALANCES: readonly SumSpec[] = [
  { into: () => AccountPeriodBalance, keys: ['accountingExerciseId', 'accountingPeriodId', 'subAccountId', 'entryType'], amounts: AMOUNTS, count: 'lineCount' },
  { into: () => AccountDayBalance, keys: ['accountingExerciseId', 'date', 'subAccountId', 'entryType'], amounts: AMOUNTS, count: 'lineCount' },
  {
    into: () => PartyPeriodBalance, keys: ['accountingExerciseId', 'accountingPeriodId', 'thirdPartyOrigin', 'thirdPartyId', 'subAccountId', 'entryType'],
    amounts: AMOUNTS, count: 'lineCount', onlyWith: 'thirdPartyId',
  },
];

export const BALANCE_RESOURCES: readonly Resource[] = [AccountPeriodBalance, AccountDayBalance, PartyPeriodBalance, DeletedEntryLine];

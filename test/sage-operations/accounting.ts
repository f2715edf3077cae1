/** Accounting as Sage clients write it: accounts, plan masters, exercises, journal types, entries and their lines. */
import { masterCharts } from '../../api/graphql/sage-roots.ts';
import { assert, nodesOf, onlyNode, deletion, type SageOperation } from './operation.ts';

const ACCOUNT_BY_ID = `query accountingAccountById($id: UUID!) {
  accountingAccounts(where: { id: { eq: $id } }) { edges { node { id code name description accountLevel accountType subAccountType deactivated } } }
}`;

const ENTRY_FIELDS = `id number date documentDate documentNumber description journalType { code type }
  accountingEntryLines { description debitAmount creditAmount subAccount { code } }`;

export const ACCOUNTING: SageOperation[] = [
  {
    name: 'accountingAccounts by code prefix, ordered, with cursors and pageInfo (pm-003..014, §1.4)',
    query: `query accountingAccounts {
      accountingAccounts(first: 10, where: { code: { startsWith: "572" } }, order: [{ code: ASC }]) {
        totalCount
        edges { cursor node { id code name description accountLevel accountType subAccountType taxTreatmentId } }
        pageInfo { hasNextPage endCursor startCursor hasPreviousPage }
      }
    }`,
    expect(data, ctx) {
      const codes = nodesOf(data.accountingAccounts).map((n) => n.code);
      assert.ok(codes.length > 0 && codes.every((c) => c.startsWith('572')), `codes ${codes}`);
      assert.deepEqual(codes, [...codes].sort());
      ctx.bankAccountId = nodesOf(data.accountingAccounts).find((n) => n.code === '5720000').id;
    },
  },
  {
    name: 'createAccountingAccount with Sage values SUB_ACCOUNT / INCOME_STATEMENT / CHARGE (pm-055)',
    query: `mutation createAccountingAccount($values: AccountingAccountCreateGLDtoInput!) { createAccountingAccount(input: $values) { id } }`,
    variables: () => ({ values: { code: '6290001', name: 'Gastos bancarios', description: '', accountLevel: 'SUB_ACCOUNT', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' } }),
    expect(data, ctx) { ctx.chargeAccountId = data.createAccountingAccount.id; },
  },
  {
    name: 'the created account read by id (UUID!) answers the values sent',
    query: ACCOUNT_BY_ID,
    variables: (ctx) => ({ id: ctx.chargeAccountId }),
    expect(data) {
      assert.deepEqual({ ...onlyNode(data.accountingAccounts), id: undefined }, { id: undefined, code: '6290001', name: 'Gastos bancarios', description: '', accountLevel: 'SUB_ACCOUNT', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE', deactivated: false });
    },
  },
  {
    name: 'updateAccountingAccount as a patch: id, name, description, subAccountType (pm-056)',
    query: `mutation updateAccountingAccount($values: AccountingAccountUpdateGLDtoInput!) { updateAccountingAccount(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.chargeAccountId, name: 'Comisiones bancarias', description: 'Servicios bancarios', subAccountType: 'CHARGE' } }),
    expect(data, ctx) { assert.equal(data.updateAccountingAccount.id, ctx.chargeAccountId); },
  },
  {
    name: 'the updated account read by id: name changed, the rest kept',
    query: ACCOUNT_BY_ID,
    variables: (ctx) => ({ id: ctx.chargeAccountId }),
    expect(data) { assert.deepEqual(onlyNode(data.accountingAccounts), { ...onlyNode(data.accountingAccounts), code: '6290001', name: 'Comisiones bancarias', description: 'Servicios bancarios', accountType: 'INCOME_STATEMENT' }); },
  },
  {
    name: 'createAccountingAccount of a spare account, to delete (pm-055)',
    query: `mutation createAccountingAccount($values: AccountingAccountCreateGLDtoInput!) { createAccountingAccount(input: $values) { id } }`,
    variables: () => ({ values: { code: '6290002', name: 'Cuenta provisional', accountLevel: 'SUB_ACCOUNT', accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE' } }),
    expect(data, ctx) { ctx.spareAccountId = data.createAccountingAccount.id; },
  },
  ...deletion('AccountingAccount', 'accountingAccounts', 'spareAccountId', 'pm-057'),
  {
    name: 'accountingPlansMasterById with $id: ID! (pm-079, §1.3)',
    query: `query accountingPlansMasterById($id: ID!) { accountingPlansMasterById(id: $id) { id description accountingPlanMasterLines { code name accountLevel } } }`,
    variables: () => ({ id: masterCharts()[0].id }),
    expect(data) {
      const [chart] = masterCharts();
      assert.equal(data.accountingPlansMasterById.id, chart.id);
      assert.equal(data.accountingPlansMasterById.accountingPlanMasterLines.length, chart.accountingPlanMasterLines.length);
      assert.ok(chart.accountingPlanMasterLines.length > 0);
    },
  },
  {
    name: 'organizationAccountingSetupByOrgId with $id: ID! (pm-076)',
    query: `query organizationAccountingSetupByOrgId($id: ID!) { organizationAccountingSetupByOrgId(id: $id) { id organizationId subAccountingLength taxRegime annualAccountsModel } }`,
    variables: (ctx) => ({ id: ctx.organisationId }),
    expect(data, ctx) {
      assert.equal(data.organizationAccountingSetupByOrgId.organizationId, ctx.organisationId);
      assert.equal(typeof data.organizationAccountingSetupByOrgId.subAccountingLength, 'number');
    },
  },
  {
    name: 'createAccountingExercise with exercise, description, startDate, numberPeriods and no endDate (pm-083)',
    query: `mutation createAccountingExercise($values: AccountingExerciseCreateGLDtoInput!) { createAccountingExercise(input: $values) { id } }`,
    variables: () => ({ values: { exercise: 2023, description: 'Ejercicio 2023', startDate: '2023-01-01', numberPeriods: 12 } }),
    expect(data, ctx) { ctx.exerciseId = data.createAccountingExercise.id; },
  },
  {
    name: 'accountingExercises filtered by exercise: the year pm-083 opened, its 12 periods (pm-081..084)',
    query: `query accountingExercises { accountingExercises(where: { exercise: { eq: 2023 } }, first: 1) { edges { node { id exercise status startDate endDate description periods { id startDate endDate isClosed } } } } }`,
    expect(data, ctx) {
      const exercise = onlyNode(data.accountingExercises);
      assert.equal(exercise.id, ctx.exerciseId);
      assert.equal(exercise.status, 'OPEN');
      assert.match(exercise.startDate, /^2023-01-01/);
      assert.match(exercise.endDate, /^2023-12-31/);
      assert.equal(exercise.periods.length, 12);
      ctx.periodId = exercise.periods[0].id;
    },
  },
  {
    name: 'closeAccountingPeriod (ours; no Sage op names it: written as the other `{id}` inputs)',
    query: `mutation closeAccountingPeriod($input: AccountingPeriodCloseGLDtoInput!) { closeAccountingPeriod(input: $input) { id } }`,
    variables: (ctx) => ({ input: { id: ctx.periodId } }),
    expect(data, ctx) { assert.equal(data.closeAccountingPeriod.id, ctx.periodId); },
  },
  {
    name: 'the closed period reads isClosed',
    query: `query accountingExercises($id: UUID!) { accountingExercises(where: { id: { eq: $id } }) { edges { node { periods { id isClosed } } } } }`,
    variables: (ctx) => ({ id: ctx.exerciseId }),
    expect(data, ctx) { assert.equal(onlyNode(data.accountingExercises).periods.find((p: any) => p.id === ctx.periodId).isClosed, true); },
  },
  {
    name: 'reopenAccountingPeriod (ours), then the period reads open again',
    query: `mutation reopenAccountingPeriod($input: AccountingPeriodReopenGLDtoInput!) { reopenAccountingPeriod(input: $input) { id } }
      `,
    variables: (ctx) => ({ input: { id: ctx.periodId } }),
    expect(data, ctx) { assert.equal(data.reopenAccountingPeriod.id, ctx.periodId); },
  },
  {
    name: 'the reopened period reads open',
    query: `query accountingExercises($id: UUID!) { accountingExercises(where: { id: { eq: $id } }) { edges { node { periods { id isClosed } } } } }`,
    variables: (ctx) => ({ id: ctx.exerciseId }),
    expect(data, ctx) { assert.equal(onlyNode(data.accountingExercises).periods.find((p: any) => p.id === ctx.periodId).isClosed, false); },
  },
  {
    name: 'createAccountingExercise 2024: closing 2023 opens it (the year end carries the balances forward)',
    query: `mutation createAccountingExercise($values: AccountingExerciseCreateGLDtoInput!) { createAccountingExercise(input: $values) { id } }`,
    variables: () => ({ values: { exercise: 2024, startDate: '2024-01-01', numberPeriods: 12 } }),
    expect(data) { assert.ok(data.createAccountingExercise.id); },
  },
  {
    name: 'closeAccountingExercise (ours; S1 15 names the Open/Closed status)',
    query: `mutation closeAccountingExercise($input: AccountingExerciseCloseGLDtoInput!) { closeAccountingExercise(input: $input) { id } }`,
    variables: (ctx) => ({ input: { id: ctx.exerciseId } }),
    expect(data, ctx) { assert.equal(data.closeAccountingExercise.id, ctx.exerciseId); },
  },
  {
    name: 'the closed exercise reads CLOSED; last:1 with no cursor reads the last exercise (pm-030, several roots per document)',
    query: `query exercises($id: UUID!) {
      closed: accountingExercises(where: { id: { eq: $id } }) { edges { node { status } } }
      accountingExercises(last: 1) { edges { node { exercise status } } }
      journalTypes(where: { type: { eq: GENERAL } }, first: 5) { edges { node { id code type } } }
    }`,
    variables: (ctx) => ({ id: ctx.exerciseId }),
    expect(data) {
      assert.equal(onlyNode(data.closed).status, 'CLOSED');
      assert.equal(data.accountingExercises.edges.length, 1);
      assert.ok(nodesOf(data.journalTypes).length > 0 && nodesOf(data.journalTypes).every((j) => j.type === 'GENERAL'));
    },
  },
  {
    name: 'reopenAccountingExercise (ours; undoes the year end), then closeAccountingExercise again',
    query: `mutation reopenAccountingExercise($input: AccountingExerciseReopenGLDtoInput!) { reopenAccountingExercise(input: $input) { id } }`,
    variables: (ctx) => ({ input: { id: ctx.exerciseId } }),
    expect(data, ctx) { assert.equal(data.reopenAccountingExercise.id, ctx.exerciseId); },
  },
  {
    name: 'closeAccountingExercise once more: the exercise closed as before',
    query: `mutation closeAccountingExercise($input: AccountingExerciseCloseGLDtoInput!) { closeAccountingExercise(input: $input) { id } }`,
    variables: (ctx) => ({ input: { id: ctx.exerciseId } }),
    expect(data, ctx) { assert.equal(data.closeAccountingExercise.id, ctx.exerciseId); },
  },
  {
    name: 'updateAccountingLockDates (ours; Odoo\'s lock dates): the lock date set, read back',
    query: `mutation updateAccountingLockDates($input: AccountingLockDatesUpdateGLDtoInput!) { updateAccountingLockDates(input: $input) { id lockDate hardLockDate } }`,
    variables: () => ({ input: { lockDate: '2023-06-30' } }),
    expect(data) { assert.equal(data.updateAccountingLockDates.lockDate, '2023-06-30'); assert.equal(data.updateAccountingLockDates.hardLockDate, null); },
  },
  {
    name: 'updateAccountingLockDates: the lock date lifted (null)',
    query: `mutation updateAccountingLockDates($input: AccountingLockDatesUpdateGLDtoInput!) { updateAccountingLockDates(input: $input) { lockDate } }`,
    variables: () => ({ input: { lockDate: null } }),
    expect(data) { assert.equal(data.updateAccountingLockDates.lockDate, null); },
  },
  {
    name: 'createJournalType of type FINANCIAL with its bank account (pm-085)',
    query: `mutation createJournalType($values: JournalTypeCreateGLDtoInput!) { createJournalType(input: $values) { id } }`,
    variables: (ctx) => ({ values: { code: 'BK2', name: 'Banco Santander', type: 'FINANCIAL', accountingAccountId: ctx.bankAccountId } }),
    expect(data, ctx) { ctx.journalTypeId = data.createJournalType.id; },
  },
  {
    name: 'updateJournalType: name only (pm-086, S1 15: only name and deactivated change)',
    query: `mutation updateJournalType($values: JournalTypeUpdateGLDtoInput!) { updateJournalType(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.journalTypeId, name: 'Banco Santander 2' } }),
    expect(data, ctx) { assert.equal(data.updateJournalType.id, ctx.journalTypeId); },
  },
  {
    name: 'journalTypes filtered by type FINANCIAL (§1.5): the new journal, renamed, with its account',
    query: `query journalTypes { journalTypes(where: { type: { eq: FINANCIAL } }, first: 50) { edges { node { id code type name accountingAccountId deactivated } } } }`,
    expect(data, ctx) {
      const journals = nodesOf(data.journalTypes);
      assert.ok(journals.every((j) => j.type === 'FINANCIAL'));
      assert.deepEqual(journals.find((j) => j.code === 'BK2'), { id: ctx.journalTypeId, code: 'BK2', type: 'FINANCIAL', name: 'Banco Santander 2', accountingAccountId: ctx.bankAccountId, deactivated: false });
    },
  },
  {
    name: 'createJournalType of a spare journal, to delete (pm-085)',
    query: `mutation createJournalType($values: JournalTypeCreateGLDtoInput!) { createJournalType(input: $values) { id } }`,
    variables: () => ({ values: { code: 'TMP', name: 'Diario provisional', type: 'GENERAL' } }),
    expect(data, ctx) { ctx.spareJournalTypeId = data.createJournalType.id; },
  },
  ...deletion('JournalType', 'journalTypes', 'spareJournalTypeId', 'pm-085 names the by-id delete'),
  {
    name: 'createAccountingEntryUsingCodes with date-only dates, result {id number} (pm-062, §1.8)',
    query: `mutation createAccountingEntryUsingCodes($values: AccountingEntryCreateUsingCodesGLDtoInput!) { createAccountingEntryUsingCodes(input: $values) { id number } }`,
    variables: (ctx) => ({ values: {
      description: 'Comisión mantenimiento', date: `${ctx.year}-02-03`, documentDate: `${ctx.year}-02-03`, documentNumber: 'BS-0203', journalTypeCode: 'BK2',
      accountingEntryLines: [
        { description: 'Comisión', debitAmount: 150, creditAmount: 0, subAccountCode: '6290001' },
        { description: 'Comisión', debitAmount: 0, creditAmount: 150, subAccountCode: '5720000' },
      ],
    } }),
    expect(data, ctx) {
      assert.ok(data.createAccountingEntryUsingCodes.number > 0);
      ctx.entryByCodesId = data.createAccountingEntryUsingCodes.id;
    },
  },
  {
    name: 'createAccountingEntryUsingIds (pm-067)',
    query: `mutation createAccountingEntryUsingIds($values: AccountingEntryCreateUsingIdsGLDtoInput!) { createAccountingEntryUsingIds(input: $values) { id number } }`,
    variables: (ctx) => ({ values: {
      description: 'Comisión transferencia', date: `${ctx.year}-02-10`, documentDate: `${ctx.year}-02-10`, documentNumber: 'BS-0210', journalTypeId: ctx.journalTypeId,
      accountingEntryLines: [
        { description: 'Comisión', debitAmount: 75.5, creditAmount: 0, subAccountId: ctx.chargeAccountId },
        { description: 'Comisión', debitAmount: 0, creditAmount: 75.5, subAccountId: ctx.bankAccountId },
      ],
    } }),
    expect(data, ctx) {
      assert.ok(data.createAccountingEntryUsingIds.number > 0);
      ctx.entryByIdsId = data.createAccountingEntryUsingIds.id;
    },
  },
  {
    name: 'accountingEntries filtered through journalType.code, ordered by journalType.code then date (pm-034)',
    query: `query accountingEntries { accountingEntries(where: { journalType: { code: { eq: "BK2" } } }, order: [{ journalType: { code: ASC } }, { date: ASC }], first: 50) { totalCount edges { node { ${ENTRY_FIELDS} } } } }`,
    expect(data, ctx) {
      const entries = nodesOf(data.accountingEntries);
      assert.deepEqual(entries.map((e) => e.id), [ctx.entryByCodesId, ctx.entryByIdsId]);
      assert.ok(entries.every((e) => e.journalType.code === 'BK2' && e.journalType.type === 'FINANCIAL'));
      assert.match(entries[0].date, new RegExp(`^${ctx.year}-02-03`));
    },
  },
  {
    name: 'accountingEntries filtered through lines: some line on sub-account 6290001 (pm-015..032, §1.5)',
    query: `query accountingEntries($code: String!) { accountingEntries(where: { accountingEntryLines: { some: { subAccount: { code: { eq: $code } } } } }, order: [{ date: ASC }]) { totalCount edges { node { ${ENTRY_FIELDS} } } } }`,
    variables: () => ({ code: '6290001' }),
    expect(data, ctx) {
      const entries = nodesOf(data.accountingEntries);
      assert.deepEqual(entries.map((e) => e.id), [ctx.entryByCodesId, ctx.entryByIdsId]);
      assert.deepEqual(entries[1].accountingEntryLines.map((l: any) => [l.subAccount.code, Number(l.debitAmount), Number(l.creditAmount)]), [['6290001', 75.5, 0], ['5720000', 0, 75.5]]);
    },
  },
  {
    name: 'accountingEntries filtered by id and date range in one object {gte, lte} (pm-021)',
    query: `query accountingEntries($id: UUID!) { accountingEntries(where: { id: { eq: $id }, date: { gte: "${new Date().getUTCFullYear()}-02-01", lte: "${new Date().getUTCFullYear()}-02-28" } }) { totalCount edges { node { id documentNumber } } } }`,
    variables: (ctx) => ({ id: ctx.entryByCodesId }),
    expect(data) { assert.equal(onlyNode(data.accountingEntries).documentNumber, 'BS-0203'); },
  },
  {
    name: 'accountingEntryLines through accountingEntry→journalType.type and subAccount.code, ordered by accountingEntry.date (pm-035..038)',
    query: `query accountingEntryLines {
      accountingEntryLines(where: { accountingEntry: { journalType: { type: { eq: FINANCIAL } } }, subAccount: { code: { eq: "6290001" } } }, order: [{ accountingEntry: { date: ASC } }], first: 50) {
        totalCount edges { node { id description debitAmount creditAmount subAccount { code } accountingEntry { id number date journalType { code } } } }
      }
    }`,
    expect(data, ctx) {
      const lines = nodesOf(data.accountingEntryLines);
      assert.deepEqual(lines.map((l) => [l.accountingEntry.id, Number(l.debitAmount)]), [[ctx.entryByCodesId, 150], [ctx.entryByIdsId, 75.5]]);
    },
  },
  {
    name: 'accountingEntryLines ordered through accountingEntry.journalType.code then accountingEntry.date (pm-035..038, §1.6)',
    query: `query accountingEntryLines { accountingEntryLines(first: 100, order: [{ accountingEntry: { journalType: { code: ASC } } }, { accountingEntry: { date: ASC } }]) { totalCount edges { node { id accountingEntry { date journalType { code } } } } } }`,
    expect(data) {
      const keys = nodesOf(data.accountingEntryLines).map((l) => `${l.accountingEntry.journalType.code} ${l.accountingEntry.date}`);
      assert.equal(keys.length, data.accountingEntryLines.totalCount);
      assert.deepEqual(keys, [...keys].sort());
      assert.ok(keys.some((k) => k.startsWith('BK2 ')) && keys.some((k) => k.startsWith('GEN ')));
    },
  },
  {
    name: 'order sent as a single object {code: DESC}, coerced to a list (§1.6)',
    query: `query accountingAccounts { accountingAccounts(first: 5, where: { code: { startsWith: "629" } }, order: { code: DESC }) { edges { node { code } } } }`,
    expect(data) {
      const codes = nodesOf(data.accountingAccounts).map((a) => a.code);
      assert.equal(codes[0], '6290001');
      assert.deepEqual(codes, [...codes].sort().reverse());
    },
  },
  {
    name: 'deleteAccountingEntry (pm-063)',
    query: `mutation deleteAccountingEntry($values: AccountingEntryDeleteGLDtoInput!) { deleteAccountingEntry(input: $values) { id } }`,
    variables: (ctx) => ({ values: { id: ctx.entryByIdsId } }),
    expect(data, ctx) { assert.equal(data.deleteAccountingEntry.id, ctx.entryByIdsId); },
  },
  {
    name: 'the deleted entry is gone from accountingEntries, the other stays',
    query: `query accountingEntries { accountingEntries(where: { journalType: { code: { eq: "BK2" } } }) { totalCount edges { node { id } } } }`,
    expect(data, ctx) { assert.deepEqual(nodesOf(data.accountingEntries).map((e) => e.id), [ctx.entryByCodesId]); },
  },
  {
    name: 'dimensions with their tags (s1-050)',
    query: `query dimensions { dimensions { totalCount edges { node { id code name description isActive creationDate modificationDate dimensionTags { id tagCode name isActive } } } } }`,
    expect(data) { assert.equal(data.dimensions.edges.length, data.dimensions.totalCount); },
  },
];

import t from 'tap';
import { nextDay } from '../../domain/calendar.ts';
import { OrganisationCountry } from '../../domain/enums.ts';
import { Errors } from '../../domain/errors.ts';
import { AccountingErrors } from '../../domain/accounting/errors.ts';
import {
  decideOrganisation,
  initialOrganisationState,
  type OrganisationCommand,
  type OrganisationEvent,
  type OrganisationState,
} from '../../domain/accounting/organisation.ts';
import { classifyAccountCode, masterChartFor } from '../../domain/reference/charts.ts';
import { BASE_CURRENCY } from '../../domain/reference/countries.ts';
import { standardJournalTypesFor } from '../../domain/reference/journal-types.ts';
import {
  NOW,
  accountIdByCode,
  createExerciseCommand,
  createOrganisationCommand,
  executeOrganisation,
  foldOrganisation,
  id,
  organisationState,
  refuses,
} from './builders.ts';

const ofType = <K extends OrganisationEvent['type']>(events: OrganisationEvent[], type: K) =>
  events.filter((e): e is Extract<OrganisationEvent, { type: K }> => e.type === type);

const createAccount = (code: string, name = `Account ${code}`, extra: Record<string, unknown> = {}, accountId = id()): OrganisationCommand => ({
  type: 'CreateAccountingAccount',
  accountId,
  fields: { code, name, ...extra },
  now: NOW,
});

/** Creates one account and returns its AccountingAccountCreated data. */
function createdAccount(state: OrganisationState, command: OrganisationCommand) {
  const events = executeOrganisation(state, command);
  const [event] = ofType(events, 'AccountingAccountCreated');
  if (events.length !== 1 || !event) throw new Error(`expected one AccountingAccountCreated, got ${events.map((e) => e.type)}`);
  return event.data;
}

t.test('CreateOrganisation installs the country chart and journal types', async (t) => {
  for (const country of OrganisationCountry) {
    t.test(country, async (t) => {
      const organisationId = id();
      const events = decideOrganisation(createOrganisationCommand(country, organisationId), initialOrganisationState());
      const chart = masterChartFor(country);
      const journals = standardJournalTypesFor(country);

      t.equal(events[0]?.type, 'OrganisationCreated', 'OrganisationCreated comes first');
      const [created] = ofType(events, 'OrganisationCreated');
      t.equal(created.data.organisationId, organisationId);
      t.equal(created.data.country, country);
      t.equal(created.data.baseCurrency, BASE_CURRENCY[country]);
      t.equal(created.data.currencyPrecision, 2);
      t.equal(created.data.chartKey, chart.key);

      const accounts = ofType(events, 'AccountingAccountCreated');
      t.equal(accounts.length, chart.lines.length, 'one AccountingAccountCreated per chart line');
      t.same(accounts.map((a) => a.data.code), chart.lines.map((l) => l.code), 'codes follow the chart');
      t.ok(accounts.every((a) => a.data.createdByUser === false && a.data.deactivated === false), 'chart accounts are system, active');
      t.ok(accounts.every((a, i) => a.data.accountLevel === chart.lines[i].accountLevel && a.data.accountType === chart.lines[i].accountType
        && a.data.subAccountType === chart.lines[i].subAccountType), 'level, type and sub-type from the chart');
      t.ok(accounts.every((a, i) => a.data.nature === chart.lines[i].nature), "the chart's nature is the account's (internal) nature");
      t.equal(new Set(accounts.map((a) => a.data.accountId)).size, accounts.length, 'account ids unique');

      const journalEvents = ofType(events, 'JournalTypeCreated');
      t.same(journalEvents.map((j) => j.data.code), journals.map((j) => j.code), 'standard journal types installed');
      t.ok(journalEvents.some((j) => j.data.type === 'CARRY_FORWARD') && journalEvents.some((j) => j.data.type === 'CLOSING'),
        'CARRY_FORWARD (opening) and CLOSING journals exist');
      t.equal(events.length, 1 + chart.lines.length + journals.length, 'nothing else is emitted');

      const state = foldOrganisation(events);
      t.equal(state.id, organisationId);
      t.equal(state.country, country);
      t.equal(state.accounts.size, chart.lines.length);
      t.equal(state.accountIdByCode.size, chart.lines.length);
      t.equal(state.journalTypes.size, journals.length);
      t.ok(state.defaultSessionId, 'a default session id');

      const again = decideOrganisation(createOrganisationCommand(country, organisationId), initialOrganisationState());
      t.same(again, events, 'ids are derived deterministically (replay gives the same events)');
    });
  }
});

t.test('a second CreateOrganisation is refused', async (t) => {
  const state = organisationState('ES');
  refuses(t, () => decideOrganisation(createOrganisationCommand('ES', state.id!), state), Errors.organisationAlreadyExists, 'same id');
  refuses(t, () => decideOrganisation(createOrganisationCommand('FR'), state), Errors.organisationAlreadyExists, 'other id, other country');
});

t.test('commands before the organisation exists are refused', async (t) => {
  refuses(t, () => decideOrganisation(createAccount('4300001'), initialOrganisationState()), Errors.organisationNotFound);
  refuses(t, () => decideOrganisation(createExerciseCommand('2026-01-01', '2026-12-31'), initialOrganisationState()), Errors.organisationNotFound);
});

t.test('account codes are unique', async (t) => {
  const state = organisationState('ES');
  refuses(t, () => decideOrganisation(createAccount('5720000'), state), AccountingErrors.accountCodeAlreadyExists, 'a chart code');

  const firstId = id();
  createdAccount(state, createAccount('5720001', 'Banco 1', {}, firstId));
  refuses(t, () => decideOrganisation(createAccount('5720001', 'Banco bis'), state), AccountingErrors.accountCodeAlreadyExists, 'a user code');
  refuses(t, () => decideOrganisation(createAccount('5720002', 'Banco 2', {}, firstId), state), Errors.documentIdAlreadyExists, 'an existing id');

  executeOrganisation(state, { type: 'DeleteAccountingAccount', accountId: firstId, accountHasEntries: false, now: NOW });
  t.notOk(state.accountIdByCode.has('5720001'), 'the code is freed by deleting the account');
  createdAccount(state, createAccount('5720001', 'Banco 1 again'));
  t.pass('a deleted code can be reused');
});

t.test('a malformed code is refused', async (t) => {
  const state = organisationState('ES');
  for (const code of ['', '43 00', '4300/1', 'x'.repeat(21)]) {
    refuses(t, () => decideOrganisation(createAccount(code), state), Errors.invalidInput, JSON.stringify(code));
  }
});

t.test('an account created from {code, name} takes its type from the chart', async (t) => {
  const state = organisationState('ES');
  const chart = masterChartFor('ES');
  const classFour = chart.lines.find((l) => l.code === '4')!;
  const data = createdAccount(state, createAccount('4300001', 'Cliente Uno'));

  t.equal(data.code, '4300001');
  t.equal(data.name, 'Cliente Uno');
  t.equal(data.accountType, classFour.accountType, 'accountType of the class 4 line');
  t.equal(data.accountType, classifyAccountCode(chart, '4300001')!.accountType, 'accountType of the closest chart line (430)');
  t.equal(data.subAccountType, 'CUSTOMER');
  t.equal(data.accountLevel, 'SUB_ACCOUNT');
  t.equal(data.createdByUser, true);
  t.equal(data.deactivated, false);
  t.equal(data.applyVat, false);
  t.equal(state.accounts.get(data.accountId)?.accountLevel, 'SUB_ACCOUNT', 'state records the posting level');
  t.equal(accountIdByCode(state, '4300001'), data.accountId);

  t.test('explicit fields win over the chart', async (t) => {
    const explicit = createdAccount(state, createAccount('4300002', 'Cliente Dos', { accountType: 'INCOME_STATEMENT', subAccountType: 'CHARGE', applyVat: true }));
    t.equal(explicit.accountType, 'INCOME_STATEMENT');
    t.equal(explicit.subAccountType, 'CHARGE');
    t.equal(explicit.applyVat, true);
  });

  t.test('other countries: a code under a CUSTOMER posting line is a CUSTOMER', async (t) => {
    for (const country of OrganisationCountry) {
      const s = organisationState(country);
      const line = masterChartFor(country).lines.find((l) => l.accountLevel === 'SUB_ACCOUNT' && l.subAccountType === 'CUSTOMER')!;
      const d = createdAccount(s, createAccount(`${line.code}1`));
      t.equal(d.subAccountType, 'CUSTOMER', `${country} ${line.code}1`);
      t.equal(d.accountType, line.accountType, `${country} ${line.code}1 type`);
    }
  });
});

t.test('a code outside every class of the chart is refused', async (t) => {
  const cases: [OrganisationCountry, string][] = [['ES', '9000001'], ['ES', '8000000'], ['FR', '801000'], ['DE', '5000'], ['DE', '6000'], ['GB', 'X100'], ['US', '0100']];
  for (const [country, code] of cases) {
    const state = organisationState(country);
    refuses(t, () => decideOrganisation(createAccount(code), state), AccountingErrors.accountCodeNotInChart, `${country} ${code}`);
  }
  const state = organisationState('ES');
  const data = createdAccount(state, createAccount('9000001', 'Cuenta de orden', { accountType: 'ECPN' }));
  t.equal(data.accountType, 'ECPN', 'accepted when the type is given');
  t.equal(data.subAccountType, 'UNDEFINED');
});

t.test('deleting an account', async (t) => {
  const state = organisationState('ES');
  const accountId = accountIdByCode(state, '5720000');
  refuses(t, () => decideOrganisation({ type: 'DeleteAccountingAccount', accountId, accountHasEntries: true, now: NOW }, state), AccountingErrors.accountHasEntries);
  refuses(t, () => decideOrganisation({ type: 'DeleteAccountingAccount', accountId: id(), accountHasEntries: false, now: NOW }, state), AccountingErrors.accountNotFound);

  const events = executeOrganisation(state, { type: 'DeleteAccountingAccount', accountId, accountHasEntries: false, now: NOW });
  t.same(events.map((e) => e.type), ['AccountingAccountDeleted']);
  t.notOk(state.accounts.has(accountId), 'gone from the state');
  t.notOk(state.accountIdByCode.has('5720000'), 'code freed');
});

t.test('updating an account', async (t) => {
  const state = organisationState('ES');
  const accountId = accountIdByCode(state, '5720000');
  executeOrganisation(state, { type: 'UpdateAccountingAccount', accountId, changes: { deactivated: true }, now: NOW });
  t.equal(state.accounts.get(accountId)?.deactivated, true, 'deactivated');
  refuses(t, () => decideOrganisation({ type: 'UpdateAccountingAccount', accountId: id(), changes: {}, now: NOW }, state), AccountingErrors.accountNotFound);
  refuses(t, () => decideOrganisation({ type: 'UpdateAccountingAccount', accountId, changes: { yearEndClosingAccountId: id() }, now: NOW }, state),
    AccountingErrors.accountNotFound, 'a dangling yearEndClosingAccountId');
});

t.test('accounting exercises', async (t) => {
  t.test('calendar year: 12 monthly periods', async (t) => {
    const state = organisationState('ES');
    const exerciseId = id();
    const [event] = executeOrganisation(state, createExerciseCommand('2026-01-01', '2026-12-31', exerciseId));
    if (event.type !== 'AccountingExerciseCreated') throw new Error('expected AccountingExerciseCreated');
    const { periods } = event.data;
    t.equal(event.data.exercise, 2026);
    t.equal(periods.length, 12);
    t.same(periods.map((p) => p.month), ['JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER']);
    t.equal(periods[0].startDate, '2026-01-01');
    t.equal(periods[1].endDate, '2026-02-28', 'February 2026 has 28 days');
    t.equal(periods[11].endDate, '2026-12-31');
    t.equal(new Set(periods.map((p) => p.periodId)).size, 12, 'period ids unique');
    t.same(state.exercises.get(exerciseId)?.periods, periods, 'the state keeps the periods');
  });

  t.test('broken year 2026-04-15..2027-04-14: 13 periods', async (t) => {
    const state = organisationState('ES');
    const [event] = executeOrganisation(state, createExerciseCommand('2026-04-15', '2027-04-14'));
    if (event.type !== 'AccountingExerciseCreated') throw new Error('expected AccountingExerciseCreated');
    const { periods } = event.data;
    t.equal(periods.length, 13);
    t.same([periods[0].startDate, periods[0].endDate, periods[0].month], ['2026-04-15', '2026-04-30', 'APRIL'], 'first period is partial');
    t.same([periods[12].startDate, periods[12].endDate, periods[12].month], ['2027-04-01', '2027-04-14', 'APRIL'], 'last period is partial');
    for (let i = 1; i < periods.length; i++) {
      t.equal(periods[i].startDate, nextDay(periods[i - 1].endDate), `period ${i + 1} follows period ${i}`);
    }
  });

  t.test('leap year February', async (t) => {
    const state = organisationState('ES');
    const [event] = executeOrganisation(state, createExerciseCommand('2028-01-01', '2028-12-31'));
    if (event.type !== 'AccountingExerciseCreated') throw new Error('expected AccountingExerciseCreated');
    t.equal(event.data.periods[1].endDate, '2028-02-29');
  });

  t.test('a single-day exercise has one period', async (t) => {
    const state = organisationState('ES');
    const [event] = executeOrganisation(state, createExerciseCommand('2026-06-30', '2026-06-30'));
    if (event.type !== 'AccountingExerciseCreated') throw new Error('expected AccountingExerciseCreated');
    t.same(event.data.periods.map((p) => [p.startDate, p.endDate]), [['2026-06-30', '2026-06-30']]);
  });

  t.test('invalid dates are refused', async (t) => {
    const state = organisationState('ES');
    refuses(t, () => decideOrganisation(createExerciseCommand('2026-12-31', '2026-01-01'), state), AccountingErrors.exerciseInvalidDates, 'end before start');
    refuses(t, () => decideOrganisation(createExerciseCommand('2026-02-30', '2026-12-31'), state), AccountingErrors.exerciseInvalidDates, 'no such day');
    refuses(t, () => decideOrganisation(createExerciseCommand('2026-1-1', '2026-12-31'), state), AccountingErrors.exerciseInvalidDates, 'not ISO');
    refuses(t, () => decideOrganisation(createExerciseCommand('2026-01-01', '2028-01-31'), state), AccountingErrors.exerciseInvalidDates, 'more than 24 periods');
  });

  t.test('overlapping exercises are refused, adjacent ones accepted', async (t) => {
    const state = organisationState('ES');
    executeOrganisation(state, createExerciseCommand('2026-01-01', '2026-12-31'));
    const overlapping: [string, string][] = [
      ['2026-01-01', '2026-12-31'],
      ['2025-07-01', '2026-06-30'],
      ['2026-07-01', '2027-06-30'],
      ['2026-03-01', '2026-03-31'],
      ['2025-01-01', '2026-01-01'],
      ['2026-12-31', '2027-12-30'],
    ];
    for (const [start, end] of overlapping) {
      refuses(t, () => decideOrganisation(createExerciseCommand(start, end), state), AccountingErrors.exerciseOverlaps, `${start}..${end}`);
    }
    executeOrganisation(state, createExerciseCommand('2027-01-01', '2027-12-31'));
    executeOrganisation(state, createExerciseCommand('2025-01-01', '2025-12-31'));
    t.equal(state.exercises.size, 3, 'adjacent exercises accepted');
  });

  t.test('an exercise id cannot be reused', async (t) => {
    const state = organisationState('ES');
    const exerciseId = id();
    executeOrganisation(state, createExerciseCommand('2026-01-01', '2026-12-31', exerciseId));
    refuses(t, () => decideOrganisation(createExerciseCommand('2027-01-01', '2027-12-31', exerciseId), state), Errors.documentIdAlreadyExists);
  });
});

t.test('journal types', async (t) => {
  const state = organisationState('ES');
  refuses(t, () => decideOrganisation({ type: 'CreateJournalType', journalTypeId: id(), fields: { code: 'GEN', name: 'Dup', type: 'GENERAL' }, now: NOW }, state),
    AccountingErrors.journalTypeCodeAlreadyExists);
  const journalTypeId = state.journalTypeIdByCode.get('VEN')!;
  refuses(t, () => decideOrganisation({ type: 'DeleteJournalType', journalTypeId, journalTypeInUse: true, now: NOW }, state), AccountingErrors.journalTypeInUse);
  executeOrganisation(state, { type: 'DeleteJournalType', journalTypeId, journalTypeInUse: false, now: NOW });
  t.notOk(state.journalTypeIdByCode.has('VEN'), 'deleted');
});

/**
 * The shared-settings commands (business and job areas, payment means, methods and terms): each decides
 * against the organisation's SharedSettings stream with the organisation (its chart and journal types) as
 * a fact. Deleting a setting parties may refer to holds the Parties stream too and reads from it whether one does.
 */
import type { z } from 'zod';
import { decideSettings, type SettingsCommand, type SettingsEvent } from '../../domain/settings/settings.ts';
import { answerInputId, command, defined, type CommandHandler, type CommandResult, type DecisionContext } from '../handler.ts';
import { referringToChart } from '../accounting/chart.ts';
import { PartiesAggregate } from '../parties/aggregates.ts';
import { SettingsAggregate } from './aggregates.ts';
import {
  BusinessAreaCreateInput, BusinessAreaDeleteInput, JobAreaCreateInput, PaymentMeanCreateInput, PaymentMeanDeleteInput,
  PaymentMethodCreateInput, PaymentMethodDeleteInput, PaymentMethodUpdateInput, PaymentTermCreateInput, PaymentTermDeleteInput, paymentTermLines,
} from './inputs.ts';

type Answer<I> = (events: SettingsEvent[], input: I) => Omit<CommandResult, 'position'>;

/** A settings command: `build` turns the input into the decider's command (`holdParties`: under the Parties stream's lock too). */
function settingsCommand<I>(input: z.ZodType<I>, build: (input: I, c: DecisionContext) => SettingsCommand | Promise<SettingsCommand>, answer: Answer<I>, holdParties = false): CommandHandler {
  return command({
    input, aggregate: SettingsAggregate, alsoHold: holdParties ? [PartiesAggregate] : [], answer,
    decide: async (i, state, c) => decideSettings(await build(i, c), state, await c.organisation()),
  });
}

/** A creation answers the id its event names under `key`. */
const created = (key: string): Answer<unknown> => ([event]) => ({ id: String((event.data as Record<string, unknown>)[key]) });
/** Whether a customer, supplier or employee refers to the setting (the Parties stream is held). */
const usedByParties = async (c: DecisionContext, id: string) => (await c.held(PartiesAggregate)).usage.has(id);

export const createBusinessArea = settingsCommand(BusinessAreaCreateInput, (i, c) => ({ type: 'CreateBusinessArea', businessAreaId: c.newId('business-area'), name: i.name, now: c.now }), created('businessAreaId'));

export const deleteBusinessArea = settingsCommand(BusinessAreaDeleteInput, async ({ id }, c) => ({ type: 'DeleteBusinessArea', businessAreaId: id, usedByParties: await usedByParties(c, id), now: c.now }), answerInputId, true);

export const createJobArea = settingsCommand(JobAreaCreateInput, (i, c) => ({ type: 'CreateJobArea', jobAreaId: c.newId('job-area'), name: i.name, now: c.now }), created('jobAreaId'));

/** A mean's accounting account is not deleted between its check and its append (referringToChart). */
export const createPaymentMean = referringToChart(settingsCommand(PaymentMeanCreateInput, (i, c) => {
  const fields = { ...i, code: i.code ?? null, iban: i.iban ?? null, bic: i.bic ?? null, bankName: i.bankName ?? null, accountingAccountId: i.accountingAccountId ?? null };
  return { type: 'CreatePaymentMean', paymentMeanId: c.newId('payment-mean'), fields, now: c.now };
}, created('paymentMeanId')));

export const deletePaymentMean = settingsCommand(PaymentMeanDeleteInput, async ({ id }, c) => ({ type: 'DeletePaymentMean', paymentMeanId: id, usedByParties: await usedByParties(c, id), now: c.now }), answerInputId, true);

/** A payment method's journal type and sub-account are not deleted between its check and its append (referringToChart). */
export const createPaymentMethod = referringToChart(settingsCommand(PaymentMethodCreateInput, (i, c) => {
  const fields = { ...i, iban: i.iban ?? null, bic: i.bic ?? null, bankName: i.bankName ?? null };
  return { type: 'CreatePaymentMethod', paymentMethodId: c.newId('payment-method'), fields, now: c.now };
}, created('paymentMethodId')));

export const updatePaymentMethod = referringToChart(settingsCommand(PaymentMethodUpdateInput, ({ id, ...changes }, c) => ({ type: 'UpdatePaymentMethod', paymentMethodId: id, changes: defined(changes), now: c.now }), answerInputId));

export const deletePaymentMethod = settingsCommand(PaymentMethodDeleteInput, ({ id }, c) => ({ type: 'DeletePaymentMethod', paymentMethodId: id, now: c.now }), answerInputId);

export const createPaymentTerm = settingsCommand(PaymentTermCreateInput, (i, c) => {
  return { type: 'CreatePaymentTerm', paymentTermId: c.newId('payment-term'), code: i.code ?? null, name: i.name, disabled: i.disabled, lines: paymentTermLines(i.lines, c.newId), now: c.now };
}, created('paymentTermId'));

export const deletePaymentTerm = settingsCommand(PaymentTermDeleteInput, ({ id }, c) => ({ type: 'DeletePaymentTerm', paymentTermId: id, now: c.now }), answerInputId);

/**
 * Lock dates (Odoo's): set on the organisation's stream by an administrator, under the organisation's lock held
 * alone, so no posting or deletion decided with the previous dates lands after the change.
 */
import { decideOrganisation } from '../../domain/accounting/organisation.ts';
import { parse, type CommandHandler } from '../handler.ts';
import { aloneInOrganisation } from '../organisation-guards.ts';
import { OrganisationAggregate } from './aggregates.ts';
import { LockDatesInput } from './inputs.ts';

export const updateAccountingLockDates: CommandHandler = aloneInOrganisation(async (services, ctx, raw) => {
  const i = parse(LockDatesInput, raw);
  await services.aggregates.execute(OrganisationAggregate, ctx.organisationId, ctx, (state) =>
    decideOrganisation({ type: 'SetAccountingLockDates', lockDate: i.lockDate, hardLockDate: i.hardLockDate, now: services.now() }, state));
  // The dates as they stand (also when the request changed nothing). No read model waits on them: the accounting
  // set-up reads the organisation's stream (and no projection subscribes to the event), so there is no position to await.
  const org = await services.organisation(ctx.organisationId);
  return { id: ctx.organisationId, fields: { lockDate: org.lockDate, hardLockDate: org.hardLockDate }, position: null };
});

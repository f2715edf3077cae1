/**
 * A party's standing is one fact that two fields show: status DISABLED <=> disabled (with its
 * disabledDate); NONE and ENABLED <=> not disabled. GDPR_APPLIED, an erased party's status, stays
 * whatever disabled says. Setting either sets both; sending both contradicting each other is refused.
 * Events of version 1 changed them apart: the upcaster derives disabled from a status sent
 * (party-upcasters.ts), and a disabled sent alone moves the status by STATUS_AFTER_DISABLED where the
 * state is known (the fold, the projection). A legacy null status stands as NONE does. Pure.
 */
import { Errors, Reasons, fail } from '../errors.ts';
import { ERASED_STATUS, type PartyStatus } from './enums.ts';
import type { ClearFields } from './fields.ts';

const DISABLED: PartyStatus = 'DISABLED';

/** What disabling or enabling does to each status: the statuses it moves, and where to. */
export const STATUS_AFTER_DISABLED: Record<'true' | 'false', { from: readonly PartyStatus[]; to: PartyStatus }> = {
  true: { from: ['NONE', 'ENABLED'], to: 'DISABLED' },
  false: { from: ['DISABLED'], to: 'ENABLED' },
};

/** A party stored with no status (legacy null) stands as NONE does. */
const NO_STATUS: PartyStatus = 'NONE';

export function statusAfterDisabled(status: string | null, disabled: boolean): string | null {
  const move = STATUS_AFTER_DISABLED[`${disabled}`];
  return (move.from as readonly string[]).includes(status ?? NO_STATUS) ? move.to : status;
}

/** The standing a party has: its status and whether it is disabled. */
export interface Standing {
  status: string | null;
  disabled: boolean;
}

/**
 * The status, disabled and disabledDate fields an update (or a create, from the defaults) writes, from
 * what the client sent of them and the standing the party has.
 */
export function standingChanges(sent: ClearFields, was: Standing, now: string): ClearFields {
  const { status, disabled } = sent;
  if (typeof status === 'string' && typeof disabled === 'boolean' && (status === DISABLED) !== disabled) {
    fail(Errors.invalidInput, { field: 'disabled', value: String(disabled), status, reason: Reasons.badValue });
  }
  const after: Standing = typeof status === 'string'
    ? { status, disabled: status === ERASED_STATUS ? was.disabled : status === DISABLED }
    : typeof disabled === 'boolean' ? { status: statusAfterDisabled(was.status, disabled), disabled } : was;
  const out: ClearFields = {};
  if (after.status !== was.status || typeof status === 'string') out.status = after.status;
  if (after.disabled !== was.disabled || typeof disabled === 'boolean' || typeof status === 'string') out.disabled = after.disabled;
  if (after.disabled && !was.disabled) out.disabledDate = now;
  else if (!after.disabled && out.disabled === false) out.disabledDate = null;
  return out;
}

/**
 * Version 1 data: a status sent decides disabled, unless disabled was sent true (then the status is DISABLED).
 * A null status of a creation stands as NONE does; in an update's `changes` it said nothing and is dropped
 * (`changes`: null there now means unchanged, the fold's and the projection's reading).
 */
export function oneStanding(fields: Record<string, unknown>, at: unknown, changes = false): Record<string, unknown> {
  if (changes && fields.status === null) {
    const { status: _, ...rest } = fields;
    return rest;
  }
  const status = fields.status === null ? NO_STATUS : fields.status;
  if (typeof status !== 'string' || status === ERASED_STATUS) return fields;
  const disabled = fields.disabled === true || status === DISABLED;
  return {
    ...fields, status: disabled ? DISABLED : fields.status, disabled,
    disabledDate: disabled ? fields.disabledDate ?? at ?? null : null,
  };
}

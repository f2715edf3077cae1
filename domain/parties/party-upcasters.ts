/**
 * The parties' event shapes over time (see ../upcasters.ts): version 1 -> 2 renames our first enum
 * values to Sage's (enums.ts RENAMED). The clear part is renamed here; the personal part is sealed in
 * the stored event, so its values (courtesy, e-mail usage, phone type) are renamed where it is opened,
 * by personalNow (projections, the event queue, the command side). Both are harmless on current values.
 */
import type { EventUpcaster } from '../upcasters.ts';
import { RENAMED as ACCOUNTING_RENAMED } from '../accounting/enums.ts';
import { renamed, type Renaming } from '../renaming.ts';
import { RENAMED } from './enums.ts';
import { oneStanding } from './standing.ts';
import { EVENT_PREFIX, PartyKind, type ContactPersonal, type PartyPersonal } from './fields.ts';

const CLEAR_RENAMINGS: Record<string, Renaming> = {
  customerType: RENAMED.type, supplierType: RENAMED.type, status: RENAMED.status, documentLanguage: RENAMED.language,
  sourceType: ACCOUNTING_RENAMED.sourceType,
};

function clearNow(fields: Record<string, unknown>): Record<string, unknown> {
  const out = { ...fields };
  for (const [name, renaming] of Object.entries(CLEAR_RENAMINGS)) if (name in out) out[name] = renamed(out[name], renaming);
  return out;
}

/**
 * Created events carry `fields`, Updated events `changes`. Their status and disabled become one fact
 * (standing.ts): BLOCKED and TERMINATED, now DISABLED, are disabled too.
 */
const sageValues = (type: string, field: 'fields' | 'changes'): EventUpcaster => ({
  type,
  from: 1,
  upcast: (data) => ({ ...data, [field]: oneStanding(clearNow(data[field] as Record<string, unknown>), data.at, field === 'changes') }),
});

export const PARTY_UPCASTERS: readonly EventUpcaster[] = PartyKind.flatMap((kind) => [
  sageValues(`${EVENT_PREFIX[kind]}Created`, 'fields'),
  sageValues(`${EVENT_PREFIX[kind]}Updated`, 'changes'),
]);

function contactNow(c: ContactPersonal): ContactPersonal {
  return {
    ...c,
    courtesy: renamed(c.courtesy, RENAMED.courtesy),
    emails: (c.emails ?? []).map((e) => ({ ...e, usage: renamed(e.usage, RENAMED.emailUsage) })),
    phones: (c.phones ?? []).map((p) => ({ ...p, type: renamed(p.type, RENAMED.phoneType) })),
  };
}

/** An opened personal part with Sage's values (see the file comment). */
export function personalNow(personal: PartyPersonal): PartyPersonal {
  const contacts = Object.fromEntries(Object.entries(personal.contacts ?? {}).map(([id, c]) => [id, contactNow(c)]));
  return { ...personal, contacts };
}

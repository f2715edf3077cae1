/** Crypto-shredding on the write side: a party event's personal part leaves the decider sealed by its subject's key. */
import { fail } from '../../domain/errors.ts';
import { PartyErrors } from '../../domain/parties/errors.ts';
import type { PartyPersonal } from '../../domain/parties/fields.ts';
import type { PartyEvent } from '../../domain/parties/parties.ts';
import { seal } from '../../platform/sealed.ts';
import type { SubjectKeys } from '../../platform/subject-keys.ts';

/** The event with its personal part sealed by the subject's key; refused once the key is destroyed. */
export async function sealed(keys: SubjectKeys, organisationId: string, event: PartyEvent<PartyPersonal>): Promise<PartyEvent> {
  if (!('personal' in event.data) || event.data.personal === null) return event;
  const partyId = event.data.partyId;
  const key = (await keys.ensure(organisationId, partyId)) ?? fail(PartyErrors.partyGdprApplied, { id: partyId });
  return { ...event, data: { ...event.data, personal: seal(event.data.personal, key, partyId) } } as PartyEvent;
}

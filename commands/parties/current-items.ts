/**
 * The lists an update's items patch, as they stand: the clear parts from the aggregate's state, the
 * personal parts opened with the party's key (read in Sage's values). An erased party's key is gone:
 * its items read without personal data (and an update that sends lists is refused for it anyway).
 */
import { CONTACT_PERSONAL_FIELDS, ADDRESS_PERSONAL_FIELDS, type PartyPersonal } from '../../domain/parties/fields.ts';
import { personalNow } from '../../domain/parties/party-upcasters.ts';
import type { PartyState } from '../../domain/parties/parties.ts';
import { isSealed, open } from '../../platform/sealed.ts';
import type { DecisionContext } from '../handler.ts';
import { NO_ITEMS, type CurrentItems } from './party-input.ts';

const nulls = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, null]));

export async function currentItems(c: DecisionContext, party: PartyState | undefined): Promise<CurrentItems> {
  if (!party) return NO_ITEMS;
  const key = await c.services.keys.ensure(c.ctx.organisationId, party.id);
  const opened = (sealed: unknown): PartyPersonal | null => (key && isSealed(sealed) ? personalNow(open<PartyPersonal>(sealed, key, party.id)) : null);
  const { items } = party;
  const forAddresses = opened(items.addressesPersonal);
  const forContacts = items.contactsPersonal === items.addressesPersonal ? forAddresses : opened(items.contactsPersonal);
  return {
    addresses: items.addresses.map((a) => ({ ...a, ...nulls(ADDRESS_PERSONAL_FIELDS), ...forAddresses?.addresses[a.addressId] })),
    contacts: items.contacts.map((x) => ({
      ...x, ...nulls(CONTACT_PERSONAL_FIELDS), emails: [], phones: [], socialMedias: [], ...forContacts?.contacts[x.contactId],
    })),
  } as CurrentItems;
}

/** A party's validated input as the decider takes it: clear and personal fields apart, every nested item with its id. */
import { PERSONAL_FIELDS, type ClearFields, type PartyKind, type PersonalFields } from '../../domain/parties/fields.ts';
import type { PartyInput } from '../../domain/parties/party-body.ts';
import { paymentTermLines as paymentTermLinesOf } from '../settings/inputs.ts';

type Loose = Record<string, any>;

/** `id(what, i)` names the i-th nested item of a kind ('address', 'contact-0-email'...): the handler's newId. */
export function toPartyInput(kind: PartyKind, values: Loose, id: (what: string, i: number) => string): PartyInput {
  const { addresses, contacts, paymentTermLines, ...scalars } = values;
  const personalNames: readonly string[] = PERSONAL_FIELDS[kind];
  const fields: ClearFields = {};
  const personal: PersonalFields = {};
  for (const [name, value] of Object.entries(scalars)) {
    if (value === undefined) continue;
    if (personalNames.includes(name)) personal[name] = value ?? null;
    else fields[name] = value ?? null;
  }
  return {
    fields,
    personal,
    addresses: addresses ? (addresses as Loose[]).map((a, i) => ({
      addressId: id('address', i), countryIsoCodeAlpha2: a.countryIsoCodeAlpha2 ?? null,
      isMainAddress: a.isMainAddress ?? false, isDeliveryAddress: a.isDeliveryAddress ?? false, isDefaultDeliveryAddress: a.isDefaultDeliveryAddress ?? false,
      name: a.name ?? null, firstLine: a.firstLine ?? null, secondLine: a.secondLine ?? null, city: a.city ?? null, province: a.province ?? null, zipCode: a.zipCode ?? null,
    })) : null,
    contacts: contacts ? (contacts as Loose[]).map((c, i) => ({
      contactId: id('contact', i), jobAreaId: c.jobAreaId ?? null,
      isDefault: c.isDefault ?? false, isDefaultCustomer: c.isDefaultCustomer ?? false, isDefaultSupplier: c.isDefaultSupplier ?? false,
      courtesy: c.courtesy ?? null, name: c.name ?? null, surname: c.surname ?? null, jobName: c.jobName ?? null,
      emails: ((c.emails ?? []) as Loose[]).map((e, j) => ({ emailId: id(`contact-${i}-email`, j), emailAddress: e.emailAddress, usage: e.usage ?? null, isDefault: e.isDefault ?? false })),
      phones: ((c.phones ?? []) as Loose[]).map((p, j) => ({ phoneId: id(`contact-${i}-phone`, j), number: p.number, type: p.type ?? null, isDefault: p.isDefault ?? false })),
      socialMedias: ((c.socialMedias ?? []) as Loose[]).map((s, j) => ({ socialMediaId: id(`contact-${i}-social`, j), name: s.name ?? null, link: s.link })),
    })) : null,
    paymentTermLines: paymentTermLines ? paymentTermLinesOf(paymentTermLines, id) : null,
  };
}

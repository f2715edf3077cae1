/**
 * A party's nested lists (addresses, contacts, a contact's e-mails, phones and social media) updated
 * item by item, Sage's way: each item sent names itself by `id` and says what it asks in
 * `requestedAction`. No id means CREATE; an id with no action means MODIFY (only the fields sent
 * change); DELETE is always explicit. Without replaceAll the list keeps its items and new ones are
 * appended; with it the list becomes exactly the items created or modified, in the order sent. A MODIFY
 * or DELETE naming an item the list does not have is refused, so nothing changes. An item created or
 * modified with one of the list's exclusive flags (the main address, the default contact...) set takes
 * it from its siblings, so making a new default needs no second item demoting the old one; two items of
 * one request both claiming it are left for the "at most one" check to refuse (one item sent twice with it
 * claims it once). Pure.
 */
import { Errors, Reasons, fail } from '../errors.ts';
import type { RequestedAction } from './enums.ts';
import { PartyErrors } from './errors.ts';

/** One item as an update sends it: its id and action, and the fields it sets. */
export interface ItemPatch {
  id?: string | null;
  requestedAction?: RequestedAction | null;
  [field: string]: unknown;
}

export interface ItemRules<T> {
  /** Whose list it is, as refusals name it (a party's kind, or a price list's: catalog/price-lists.ts). */
  kind: string;
  /** Where the list is in the input ('addresses', 'contacts[1].emails'), for refusals. */
  field: string;
  idOf: (item: T) => string;
  /** The new item of the i-th patch (its id is the service's: an id sent with CREATE is not used). */
  create: (patch: ItemPatch, i: number) => T;
  /** The item with the patch's fields applied. */
  modify: (item: T, patch: ItemPatch, i: number) => T;
  /** Flags at most one item of the list holds (see the file comment). */
  exclusive?: readonly string[];
}

export const actionOf = (patch: ItemPatch): RequestedAction => patch.requestedAction ?? (patch.id ? 'MODIFY' : 'CREATE');

export function mergeItems<T>(current: readonly T[], patches: readonly ItemPatch[], replaceAll: boolean, rules: ItemRules<T>): T[] {
  const items = new Map(current.map((item) => [rules.idOf(item), item]));
  const order = replaceAll ? [] : current.map(rules.idOf);
  const claims = new Map<string, string[]>((rules.exclusive ?? []).map((flag) => [flag, []]));
  const claim = (patch: ItemPatch, id: string) => {
    for (const [flag, ids] of claims) if (patch[flag] === true) ids.push(id);
  };
  patches.forEach((patch, i) => {
    const action = actionOf(patch);
    if (action === 'CREATE') {
      const item = rules.create(patch, i);
      items.set(rules.idOf(item), item);
      order.push(rules.idOf(item));
      claim(patch, rules.idOf(item));
      return;
    }
    const at = `${rules.field}[${i}]`;
    if (!patch.id) return fail(Errors.invalidInput, { field: `${at}.id`, reason: Reasons.required });
    const item = items.get(patch.id) ?? fail(PartyErrors.partyItemNotFound, { field: at, kind: rules.kind, id: patch.id, action });
    const index = order.indexOf(patch.id);
    if (action === 'DELETE') {
      items.delete(patch.id);
      if (index >= 0) order.splice(index, 1);
      return;
    }
    items.set(patch.id, rules.modify(item, patch, i));
    if (index < 0) order.push(patch.id);
    claim(patch, patch.id);
  });
  const merged = order.map((id) => items.get(id)!);
  return [...claims].reduce((list, [flag, ids]) => {
    // Claims by item, not by patch: the same item sent twice with the flag is one claim (and none if it ends without it).
    const holders = [...new Set(ids)].filter((id) => order.includes(id) && (items.get(id) as Record<string, unknown>)[flag] === true);
    return holders.length === 1 ? list.map((item) => (rules.idOf(item) !== holders[0] && (item as Record<string, unknown>)[flag] ? { ...item, [flag]: false } : item)) : list;
  }, merged);
}

/** The patch's fields among `names` that were sent (null included: it clears the field). */
export function sentFields(patch: ItemPatch, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => patch[n] !== undefined).map((n) => [n, patch[n]]));
}

/** A field a new item needs (an e-mail's address, a phone's number...): refused when an update's CREATE leaves it out. */
export function required(value: unknown, field: string): string {
  return typeof value === 'string' ? value : fail(Errors.invalidInput, { field, reason: Reasons.required });
}

/**
 * Sales tariffs and sales discount groups (Sage's SalesTariff and SalesDiscountGroup): price lists of the
 * Catalog aggregate. Each has lines, one per product and validity period, with a value (a tariff's
 * indicatorValue, a discount group's firstDiscount) and stretches by quantity (fromUnits..toUnits, both
 * included) that replace it for the quantities they cover. The same product's lines may not overlap in time
 * and a line's stretches may not overlap, so a date and a quantity name at most one value. Lines and
 * stretches are updated item by item with `requestedAction` (domain/parties/sub-collections.ts). Pure.
 */
import { Errors, Reasons, assert, fail } from '../errors.ts';
import { CODE_LENGTH, checkCode } from '../codes.ts';
import { Decimal, MAX_AMOUNT } from '../money.ts';
import { mergeItems, sentFields, type ItemPatch } from '../parties/sub-collections.ts';
import type { SalesTariffType } from './enums.ts';
import { CatalogErrors } from './errors.ts';

export type PriceListKind = 'salesTariff' | 'salesDiscount';

export interface Stretch {
  id: string;
  fromUnits: string;
  toUnits: string;
  value: string;
  creationDate: string;
  modificationDate: string;
}

export interface PriceListLine {
  id: string;
  productId: string;
  /** YYYY-MM-DD, both included; null is open-ended. */
  startDate: string | null;
  endDate: string | null;
  enabled: boolean;
  value: string;
  stretchs: Stretch[];
  creationDate: string;
  modificationDate: string;
}

export interface PriceList {
  id: string;
  code: string;
  name: string;
  /** A tariff's type; null for a discount group. */
  type: SalesTariffType | null;
  startDate: string | null;
  endDate: string | null;
  enabled: boolean;
  lines: PriceListLine[];
  creationDate: string;
  modificationDate: string;
}

export type PriceListEvent =
  | { type: 'SalesTariffCreated' | 'SalesTariffUpdated' | 'SalesDiscountCreated' | 'SalesDiscountUpdated'; data: { priceList: PriceList; at: string } }
  | { type: 'SalesTariffDeleted' | 'SalesDiscountDeleted'; data: { priceListId: string; code: string; at: string } };

export const PRICE_LIST_EVENT_TYPES = [
  'SalesTariffCreated', 'SalesTariffUpdated', 'SalesTariffDeleted', 'SalesDiscountCreated', 'SalesDiscountUpdated', 'SalesDiscountDeleted',
] as const satisfies readonly PriceListEvent['type'][];

const EVENT_PREFIX: Record<PriceListKind, 'SalesTariff' | 'SalesDiscount'> = { salesTariff: 'SalesTariff', salesDiscount: 'SalesDiscount' };
export const kindOfEvent = (type: PriceListEvent['type']): PriceListKind => (type.startsWith('SalesTariff') ? 'salesTariff' : 'salesDiscount');

export const PRICE_LIST_LIMITS = Object.freeze({ maxLists: 1_000, maxLines: 2_000, maxStretchs: 20, priceDecimals: 6, percentDecimals: 2 });

/** The header fields a create sets and an update may change (only those sent). */
export interface PriceListHeader {
  name: string;
  type: SalesTariffType | null;
  startDate: string | null;
  endDate: string | null;
  enabled: boolean;
}

export type PriceListCommand =
  | { type: 'CreatePriceList'; kind: PriceListKind; id: string; code: string; header: PriceListHeader; lines: ItemPatch[]; now: string }
  | { type: 'UpdatePriceList'; kind: PriceListKind; id: string; header: Partial<PriceListHeader>; lines: ItemPatch[] | null; replaceAll: boolean; now: string }
  /** `usedByCustomers`: a customer names it (the Parties' usage, read by the handler). */
  | { type: 'DeletePriceList'; kind: PriceListKind; id: string; usedByCustomers: boolean; now: string };

export interface PriceListsState {
  lists: Record<PriceListKind, Map<string, PriceList>>;
  idByCode: Record<PriceListKind, Map<string, string>>;
}

export const initialPriceListsState = (): PriceListsState => ({
  lists: { salesTariff: new Map(), salesDiscount: new Map() },
  idByCode: { salesTariff: new Map(), salesDiscount: new Map() },
});

export interface PriceListFacts {
  /** The organisation's products: a line names one of them. */
  productExists: (id: string) => boolean;
  /** New ids for lines and stretches, unique within the command. */
  newId: (kind: string) => string;
}

const LINE_FIELDS = ['productId', 'startDate', 'endDate', 'enabled', 'value'] as const;
const STRETCH_FIELDS = ['fromUnits', 'toUnits', 'value'] as const;

/** A decimal within [min, max] with at most `decimals` places, in its stored form. */
function checkedDecimal(raw: unknown, field: string, min: Decimal, max: Decimal, decimals: number, reason: string): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const value = /^-?\d{1,15}(\.\d{1,20})?$/.test(text) ? new Decimal(text) : null;
  if (!value || value.lt(min) || value.gt(max)) fail(Errors.invalidInput, { field, value: String(raw ?? ''), reason });
  if (value.decimalPlaces() > decimals) fail(Errors.invalidInput, { field, value: text, reason: Reasons.maxDecimals, decimals });
  return value.toFixed(Math.max(2, value.decimalPlaces()));
}

const ZERO = new Decimal(0);
const HUNDRED = new Decimal(100);
const units = (raw: unknown, field: string) => checkedDecimal(raw, field, ZERO, MAX_AMOUNT, 6, Reasons.nonNegativeDecimal);

/** A line's or stretch's value as its list's kind and type read it. */
function checkedValue(kind: PriceListKind, type: SalesTariffType | null, raw: unknown, field: string): string {
  if (kind === 'salesDiscount') return checkedDecimal(raw, field, ZERO, HUNDRED, PRICE_LIST_LIMITS.percentDecimals, Reasons.percentage);
  // INCREMENT: a percentage added to the product's price, so no lower than -100 (a price of zero).
  if (type === 'INCREMENT') return checkedDecimal(raw ?? '0', field, HUNDRED.neg(), new Decimal(1000), PRICE_LIST_LIMITS.percentDecimals, Reasons.amountRange);
  return checkedDecimal(raw ?? '0', field, ZERO, MAX_AMOUNT, PRICE_LIST_LIMITS.priceDecimals, Reasons.nonNegativeDecimal);
}

function checkPeriod(startDate: string | null, endDate: string | null, field: string): void {
  if (startDate && endDate && startDate > endDate) fail(CatalogErrors.priceListPeriodReversed, { field, startDate, endDate });
}

/** Two periods share a day (null ends are open). */
const periodsMeet = (a: Pick<PriceListLine, 'startDate' | 'endDate'>, b: Pick<PriceListLine, 'startDate' | 'endDate'>) =>
  (a.startDate ?? '') <= (b.endDate ?? '9999-12-31') && (b.startDate ?? '') <= (a.endDate ?? '9999-12-31');

function checkStretchs(stretchs: readonly Stretch[], field: string): void {
  if (stretchs.length > PRICE_LIST_LIMITS.maxStretchs) fail(Errors.invalidInput, { field, reason: Reasons.tooMany, limit: PRICE_LIST_LIMITS.maxStretchs });
  stretchs.forEach((s, j) => {
    if (new Decimal(s.fromUnits).gt(s.toUnits)) fail(CatalogErrors.stretchUnitsReversed, { field: `${field}[${j}]`, fromUnits: s.fromUnits, toUnits: s.toUnits });
  });
  const sorted = [...stretchs].sort((a, b) => new Decimal(a.fromUnits).comparedTo(b.fromUnits));
  for (let j = 1; j < sorted.length; j++) {
    if (new Decimal(sorted[j].fromUnits).lte(sorted[j - 1].toUnits)) {
      fail(CatalogErrors.stretchsOverlap, { field, first: `${sorted[j - 1].fromUnits}-${sorted[j - 1].toUnits}`, second: `${sorted[j].fromUnits}-${sorted[j].toUnits}` });
    }
  }
}

/** The rules across a list's lines: a product may have one line a day. */
function checkLines(lines: readonly PriceListLine[]): void {
  if (lines.length > PRICE_LIST_LIMITS.maxLines) fail(Errors.invalidInput, { field: 'lines', reason: Reasons.tooMany, limit: PRICE_LIST_LIMITS.maxLines });
  const byProduct = new Map<string, PriceListLine[]>();
  for (const line of lines) byProduct.set(line.productId, [...(byProduct.get(line.productId) ?? []), line]);
  for (const [productId, same] of byProduct) {
    const sorted = same.sort((a, b) => (a.startDate ?? '').localeCompare(b.startDate ?? ''));
    for (let i = 1; i < sorted.length; i++) {
      if (periodsMeet(sorted[i - 1], sorted[i])) fail(CatalogErrors.priceListLinesOverlap, { field: 'lines', productId });
    }
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function mergeLines(kind: PriceListKind, type: SalesTariffType | null, current: PriceListLine[], patches: readonly ItemPatch[], replaceAll: boolean, facts: PriceListFacts, now: string): PriceListLine[] {
  const stretchsOf = (item: Stretch[], patch: ItemPatch, at: string) => {
    const sent = patch.stretchs as ItemPatch[] | null | undefined;
    if (!sent) return item;
    return mergeItems(item, sent, false, {
      kind, field: `${at}.stretchs`, idOf: (s: Stretch) => s.id,
      create: (p, j) => stretch({ id: facts.newId(`${kind}Stretch`), creationDate: now }, p, `${at}.stretchs[${j}]`),
      modify: (s, p, j) => stretch(s, { ...s, ...sentFields(p, STRETCH_FIELDS) }, `${at}.stretchs[${j}]`),
    });
  };
  const stretch = (base: Pick<Stretch, 'id' | 'creationDate'> & Partial<Stretch>, p: ItemPatch, at: string): Stretch => {
    const next = { id: base.id, fromUnits: units(p.fromUnits, `${at}.fromUnits`), toUnits: units(p.toUnits, `${at}.toUnits`), value: checkedValue(kind, type, p.value, `${at}.value`) };
    const changed = base.fromUnits !== next.fromUnits || base.toUnits !== next.toUnits || base.value !== next.value;
    return { ...next, creationDate: base.creationDate, modificationDate: changed ? now : base.modificationDate ?? now };
  };
  const line = (base: Pick<PriceListLine, 'id' | 'creationDate'> & Partial<PriceListLine>, p: ItemPatch, at: string): PriceListLine => {
    const productId = text(p.productId) ?? fail(Errors.invalidInput, { field: `${at}.productId`, reason: Reasons.required });
    if (!facts.productExists(productId)) fail(CatalogErrors.productNotFound, { id: productId });
    const next = {
      id: base.id, productId, startDate: text(p.startDate), endDate: text(p.endDate), enabled: p.enabled !== false,
      value: checkedValue(kind, type, p.value, `${at}.value`), stretchs: stretchsOf(base.stretchs ?? [], p, at),
    };
    checkPeriod(next.startDate, next.endDate, at);
    checkStretchs(next.stretchs, `${at}.stretchs`);
    const changed = JSON.stringify({ ...base, creationDate: 0, modificationDate: 0 }) !== JSON.stringify({ ...next, creationDate: 0, modificationDate: 0 });
    return { ...next, creationDate: base.creationDate, modificationDate: changed ? now : base.modificationDate ?? now };
  };
  const merged = mergeItems(current, patches, replaceAll, {
    kind, field: 'lines', idOf: (l: PriceListLine) => l.id,
    create: (p, i) => line({ id: facts.newId(`${kind}Line`), creationDate: now }, p, `lines[${i}]`),
    modify: (l, p, i) => line(l, { ...l, ...sentFields(p, LINE_FIELDS), stretchs: p.stretchs }, `lines[${i}]`),
  });
  // A type change rereads every value: a line not sent is checked against the new type too.
  const sentIds = new Set(patches.map((p) => p.id));
  const rechecked = merged.map((l) => (sentIds.has(l.id) ? l : { ...l, value: checkedValue(kind, type, l.value, 'lines'), stretchs: l.stretchs.map((s) => ({ ...s, value: checkedValue(kind, type, s.value, 'lines') })) }));
  checkLines(rechecked);
  return rechecked;
}

function checkHeader(kind: PriceListKind, h: PriceListHeader): void {
  if (kind === 'salesTariff' && h.type === 'MARGIN') fail(CatalogErrors.tariffTypeNotSupported, { type: h.type });
  checkPeriod(h.startDate, h.endDate, kind);
}

const listOf = (state: PriceListsState, kind: PriceListKind, id: string): PriceList =>
  state.lists[kind].get(id) ?? fail(CatalogErrors.priceListNotFound, { kind, id });

export function decidePriceLists(command: PriceListCommand, state: PriceListsState, facts: PriceListFacts): PriceListEvent[] {
  const { kind, now: at } = command;
  const prefix = EVENT_PREFIX[kind];
  switch (command.type) {
    case 'CreatePriceList': {
      checkCode(command.code, CODE_LENGTH.product);
      if (state.idByCode[kind].has(command.code)) fail(CatalogErrors.priceListCodeAlreadyExists, { kind, code: command.code });
      if (state.lists[kind].has(command.id)) fail(Errors.documentIdAlreadyExists, { id: command.id });
      if (state.lists[kind].size >= PRICE_LIST_LIMITS.maxLists) fail(Errors.invalidInput, { field: 'code', reason: Reasons.tooMany, limit: PRICE_LIST_LIMITS.maxLists });
      const header = { ...command.header, type: kind === 'salesTariff' ? command.header.type ?? 'PRICE' : null };
      checkHeader(kind, header);
      const lines = mergeLines(kind, header.type, [], command.lines, false, facts, at);
      const priceList: PriceList = { id: command.id, code: command.code, ...header, lines, creationDate: at, modificationDate: at };
      return [{ type: `${prefix}Created`, data: { priceList, at } }];
    }
    case 'UpdatePriceList': {
      const list = listOf(state, kind, command.id);
      const header = { ...list, ...command.header, type: kind === 'salesTariff' ? command.header.type ?? list.type : null };
      checkHeader(kind, header);
      const lines = mergeLines(kind, header.type, list.lines, command.lines ?? [], command.replaceAll, facts, at);
      const priceList: PriceList = { ...header, lines, modificationDate: at };
      return [{ type: `${prefix}Updated`, data: { priceList, at } }];
    }
    case 'DeletePriceList': {
      const list = listOf(state, kind, command.id);
      if (command.usedByCustomers) fail(CatalogErrors.priceListInUse, { kind, code: list.code });
      return [{ type: `${prefix}Deleted`, data: { priceListId: list.id, code: list.code, at } }];
    }
  }
}

/** The code of a price list with a line for this product, if any (deleting the product is refused then). */
export function priceListUsingProduct(state: PriceListsState, productId: string): string | undefined {
  for (const lists of Object.values(state.lists)) for (const list of lists.values()) if (list.lines.some((l) => l.productId === productId)) return list.code;
  return undefined;
}

export function evolvePriceLists(state: PriceListsState, event: PriceListEvent): PriceListsState {
  const kind = kindOfEvent(event.type);
  if (event.type.endsWith('Deleted')) {
    const d = event.data as { priceListId: string; code: string };
    assert(state.lists[kind].get(d.priceListId)?.code === d.code, `${event.type} of ${d.priceListId} with code ${d.code}, which does not exist`);
    state.lists[kind].delete(d.priceListId);
    state.idByCode[kind].delete(d.code);
    return state;
  }
  const list = (event.data as { priceList: PriceList }).priceList;
  const known = state.lists[kind].get(list.id);
  if (event.type.endsWith('Created')) assert(!known && !state.idByCode[kind].has(list.code), `${event.type} of ${list.id} (${list.code}), which exists already`);
  else assert(known?.code === list.code, `${event.type} of ${list.id} with code ${list.code}, which does not exist`);
  state.lists[kind].set(list.id, list);
  state.idByCode[kind].set(list.code, list.id);
  return state;
}

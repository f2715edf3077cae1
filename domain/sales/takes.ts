/**
 * What a document's lines may take of their origins' lines, and what it must keep of its own lines for the
 * documents that took of them. We refuse a conversion beyond the pending quantity (Sage lets a line exceed
 * it; the issue asks pending quantities to hold), summed over the document's own lines per origin line, with
 * what the document took before (an update) counted as given back first.
 */
import { Decimal, ZERO } from '../money.ts';
import { fail, Reasons } from '../errors.ts';
import { SalesErrors } from './errors.ts';
import type { SalesLine, SalesLineOrigin } from './events.ts';
import type { LineSpec } from './lines.ts';
import type { SalesState } from './state.ts';

type Taking = Pick<LineSpec, 'totalQuantity' | 'origin'>;

/** Per origin line (`originId/originLineId`): the quantity the lines take of it. */
function takesOf(lines: readonly Taking[]): Map<string, Decimal> {
  const takes = new Map<string, Decimal>();
  for (const l of lines) {
    if (!l.origin) continue;
    const key = `${l.origin.originId}/${l.origin.originLineId}`;
    takes.set(key, (takes.get(key) ?? ZERO).plus(l.totalQuantity));
  }
  return takes;
}

function checkOriginTakes(sales: SalesState, previous: readonly SalesLine[], specs: readonly LineSpec[]): void {
  specs.forEach((s, i) => {
    if (s.origin && !new Decimal(s.totalQuantity).gt(0)) fail(SalesErrors.invalidLine, { line: i + 1, field: 'totalQuantity', reason: Reasons.tooSmall });
  });
  const before = takesOf(previous);
  const after = takesOf(specs);
  for (const [key, wanted] of after) {
    const had = before.get(key) ?? ZERO;
    if (wanted.lte(had)) continue; // taking less than before never needs more of the origin
    const { originId, originLineId } = specs.find((s) => s.origin && `${s.origin.originId}/${s.origin.originLineId}` === key)!.origin as SalesLineOrigin;
    const origin = sales.documents.get(originId);
    const line = origin?.document.lines.find((l) => l.lineId === originLineId);
    if (!origin || !line) continue; // checked where the line was created (originOf)
    const pending = new Decimal(line.totalQuantity).minus(origin.taken.get(originLineId) ?? '0').plus(had);
    if (wanted.gt(pending)) {
      const at = specs.findIndex((s) => s.origin?.originId === originId && s.origin.originLineId === originLineId) + 1;
      fail(SalesErrors.quantityExceedsPending, { line: at, originId, originLineId, requested: wanted.toString(), pending: Decimal.max(pending, 0).toString() });
    }
  }
}

/** A line later documents took of stays, with at least what they took. */
function checkOwnLinesTaken(sales: SalesState, documentId: string, specs: readonly LineSpec[]): void {
  const kept = sales.documents.get(documentId);
  if (!kept) return;
  for (const [lineId, taken] of kept.taken) {
    if (!new Decimal(taken).gt(0)) continue;
    const spec = specs.find((s) => s.lineId === lineId);
    if (!spec || new Decimal(spec.totalQuantity).lt(taken)) fail(SalesErrors.lineTakenByLaterDocument, { id: lineId, documentId, taken });
  }
}

/** The document's lines after a create (no previous lines) or an update, checked against what is taken both ways. */
export function checkTakes(sales: SalesState, documentId: string, previous: readonly SalesLine[], specs: readonly LineSpec[]): void {
  checkOriginTakes(sales, previous, specs);
  checkOwnLinesTaken(sales, documentId, specs);
}

/** The Sales events' shapes over time (see domain/upcasters.ts). */
import type { EventUpcaster } from '../upcasters.ts';

type StoredLine = Record<string, unknown>;

/**
 * A line's price sources (issue 18, sales tariffs): until then a line was marked `unitPriceFromProduct`
 * when its price was the product's, and its discount was never priced again. Now each of price and
 * discount records where it came from; an old discount reads as sent, so it stays as recorded.
 */
function lineSources(line: StoredLine): StoredLine {
  if ('unitPriceSource' in line) return line;
  const { unitPriceFromProduct, ...kept } = line;
  return { ...kept, unitPriceSource: unitPriceFromProduct === true ? 'PRODUCT' : 'INPUT', firstDiscountSource: 'INPUT' };
}

function documentLines(data: Record<string, unknown>): Record<string, unknown> {
  const document = data.document as { lines?: StoredLine[] } | undefined;
  if (!document?.lines) return data;
  return { ...data, document: { ...document, lines: document.lines.map(lineSources) } };
}

export const SALES_UPCASTERS: readonly EventUpcaster[] = [
  { type: 'SalesDocumentCreated', from: 1, upcast: documentLines },
  { type: 'SalesDocumentUpdated', from: 1, upcast: documentLines },
];

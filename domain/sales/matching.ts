/**
 * Matching letters (lettrage): the letter a settlement's lines and the receivables they pay share. One series
 * per organisation, allocated by the settlement's decision in the Sales stream (Sales-<organisationId>, where
 * every settlement is decided, so two never take one letter): the n-th settlement ever recorded takes
 * matchingLetterOf(n); an undone settlement keeps its letter, never reused, as an auditor would expect.
 * AA, AB, ... AZ, BA, ... ZZ (676), then AAA, ... ZZZ, AAAA: as many letters as the count needs.
 */
import { assert } from '../errors.ts';

const LETTERS = 26;

export function matchingLetterOf(n: number): string {
  assert(Number.isSafeInteger(n) && n >= 1, `a matching letter's number is 1 or more (got ${n})`);
  let index = n - 1;
  let width = 2;
  while (index >= LETTERS ** width) {
    index -= LETTERS ** width;
    width += 1;
  }
  let letters = '';
  for (let i = 0; i < width; i++) {
    letters = String.fromCharCode(65 + (index % LETTERS)) + letters;
    index = Math.floor(index / LETTERS);
  }
  return letters;
}

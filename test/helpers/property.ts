/**
 * Property tests' two pieces: a predicate throws on the first broken expectation (`expect`), so fast-check can
 * shrink to a minimal counterexample; `holds` reports the outcome to tap, with that counterexample in the failure.
 */
import fc from 'fast-check';
import type { TAP } from 'tap';

export const NUM_RUNS = 200;

export function holds(t: Pick<TAP, 'pass' | 'fail'>, property: fc.IProperty<any>): void {
  try {
    fc.assert(property, { numRuns: NUM_RUNS });
    t.pass(`holds for ${NUM_RUNS} runs`);
  } catch (error) {
    reportFailure(t, error);
  }
}

/** holds() for a property that runs against the real service: asynchronous, with its own bound on runs. */
export async function holdsAsync(t: Pick<TAP, 'pass' | 'fail'>, property: fc.IAsyncProperty<any>, params: fc.Parameters<any> & { numRuns: number }): Promise<void> {
  try {
    await fc.assert(property, params);
    t.pass(`holds for ${params.numRuns} runs`);
  } catch (error) {
    reportFailure(t, error);
  }
}

function reportFailure(t: Pick<TAP, 'fail'>, error: unknown): void {
  // fast-check's message holds the shrunk counterexample and the predicate's own error.
  t.fail(error instanceof Error ? `${error.message}${error.cause ? `\ncause: ${String(error.cause)}` : ''}` : String(error));
}

export function expect(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

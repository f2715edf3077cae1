/**
 * A mutation answers once the read models show its events, so that the client reads its own write.
 * When they do not (yet), it says so rather than hang or pretend: the change IS recorded (its id is in
 * the error's extensions; retrying with the same Idempotency-Key returns it again), but a read now would
 * not show it.
 */
import { GraphQLError } from 'graphql';
import type { NotVisible } from '../../projections/engine/daemon.ts';

export const READ_MODELS_BEHIND = 'READ_MODELS_BEHIND';

export function notVisibleError(result: { id: string; number?: number; code?: string }, lag: NotVisible): GraphQLError {
  const why =
    lag.reason === 'parked'
      ? `an earlier event of this organisation could not be applied to ${lag.projections.join(', ')}, so its later events are held until an operator retries it (ledger projections status)`
      : lag.reason === 'rebuilding'
        ? `${lag.projections.join(', ')} ${lag.projections.length > 1 ? 'are' : 'is'} being rebuilt to a new version in the background and will show it once swapped in (GET /health shows the progress)`
      : lag.reason === 'stopped'
        ? `${lag.projections.join(', ')} stopped on a fault of its own and is retried by itself (GET /health, ledger projections status)`
      : lag.reason === 'retrying'
        ? `the projections cannot reach the database and are retrying${lag.error ? ` (${lag.error})` : ''}`
        : 'the projections are behind; read again shortly';
  return new GraphQLError(`The change was recorded (id ${result.id}), but the read models do not show it yet: ${why}.`, {
    extensions: { code: READ_MODELS_BEHIND, reason: lag.reason, recorded: { id: result.id, number: result.number, code: result.code } },
  });
}

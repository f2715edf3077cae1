/** Every area's mutations as GraphQL serves them: their SDL, and handlers that bind an idempotency key to the request. */
import { requestFingerprint } from '../../commands/idempotency.ts';
import type { MutationSpec } from '../../commands/mutation.ts';
import { MUTATIONS as DECLARED } from '../../modules/index.ts';
import { InputSdl } from './input-sdl.ts';

export type { MutationSpec };

export const MUTATIONS: MutationSpec[] = DECLARED.map(keyedToTheRequest);

/**
 * With an idempotency key, the command carries the request's fingerprint, and a key already used for
 * another request is refused before the handler reads anything (its checks would answer for the new input).
 */
function keyedToTheRequest(spec: MutationSpec): MutationSpec {
  return {
    ...spec,
    async run(services, ctx, input) {
      if (!ctx.commandId) return spec.run(services, ctx, input);
      const keyed = { ...ctx, requestFingerprint: requestFingerprint(spec.name, input) };
      await services.aggregates.recorded(keyed);
      return spec.run(services, keyed, input);
    },
  };
}

/** Input types (generated from the commands' zod schemas) and result types of the mutations above. */
export function mutationTypesSdl(): string {
  const inputs = new InputSdl();
  for (const mutation of MUTATIONS) inputs.define(mutation.input, mutation.schema);
  const results = MUTATIONS.map((m) => `type ${m.output} {${m.returns?.code ? ' code: String!' : ''}${m.returns?.id === false ? '' : ' id: UUID!'}${m.returns?.number ? ' number: Int' : ''}${m.returns?.fields ? ` ${m.returns.fields}` : ''} }`);
  return `${inputs.sdl()}\n${[...new Set(results)].join('\n')}\n`;
}

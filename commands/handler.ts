/**
 * The one command handler: parse the input, decide against an aggregate's state, append, answer. Each
 * area's mutations are `command({...})` values (commands/<area>/mutations.ts); what differs between them is
 * data: the input schema, the aggregate and stream, the streams held beside it, the decision and the answer.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { BusinessError, Errors, Reasons } from '../domain/errors.ts';
import { derivedId } from '../domain/ids.ts';
import type { OrganisationState } from '../domain/accounting/organisation.ts';
import type { GlobalPosition } from '../eventstore/port.ts';
import { unstorableTextAt } from '../platform/storable-text.ts';
import { AggregateStore, type Aggregate, type CommandContext } from './aggregate-store.ts';
import { fieldPath, invalidInput } from './input-errors.ts';
import type { CommandServices } from './services.ts';

type AnyEvent = { type: string; data: unknown };

/** What a mutation answers: the id it acted on, and its number or code where the service gave one. */
export interface CommandResult {
  id: string;
  number?: number;
  code?: string;
  /** Further fields of the result type (MutationSpec.returns.fields), e.g. a sales document's operationalNumber. */
  fields?: Record<string, unknown>;
  /** Where its events are in the store (null when nothing changed): the read models are awaited up to it. */
  position: GlobalPosition | null;
}

export type CommandHandler = (services: CommandServices, ctx: CommandContext, input: unknown) => Promise<CommandResult>;

/** Parses with zod; a refusal becomes the business error clients know, naming the field. */
export function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  // Before zod: a string no store can hold is refused wherever it is, even in a field zod would drop. Named as
  // zod refusals name fields, with a reason the client reads in its language.
  const unstorable = unstorableTextAt(input);
  if (unstorable) throw new BusinessError(Errors.invalidInput, { field: fieldPath(unstorable.path), reason: unstorable.nul ? Reasons.nulCharacter : Reasons.illFormedUnicode });
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidInput(result.error, input);
}

/** A new aggregate id; derived from the idempotency key when there is one, so a retry names the same thing. */
export function newId(ctx: CommandContext, kind: string, index = 0): string {
  return ctx.commandId ? derivedId(ctx.commandId, kind, String(index)) : randomUUID();
}

/** Drops undefined keys so an update only carries the fields the client sent. */
export function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What a decision sees besides the input and its aggregate's state. */
export interface DecisionContext {
  ctx: CommandContext;
  services: CommandServices;
  /** The command's instant, one per command (a decision run again after a conflict keeps it). */
  now: string;
  /** A new id for `kind` (the index tells the several ids of one kind apart), the same each time within the command. */
  newId(kind: string, index?: number): string;
  /** The organisation as its stream says now (country, features, chart): every area decides with it. */
  organisation(): Promise<OrganisationState>;
  /** The state of another aggregate of the organisation whose stream this command holds (`alsoHold`). */
  held<S>(aggregate: Aggregate<S, never>): Promise<S>;
}

export interface Decision<I, S, E extends AnyEvent> {
  input: z.ZodType<I>;
  aggregate: Aggregate<S, E>;
  /** The aggregate's id; the organisation's own stream (one per organisation) when omitted. */
  stream?: (input: I, ctx: CommandContext) => string;
  /** The organisation's streams of other aggregates held while deciding, read with `held`. */
  alsoHold?: readonly Aggregate<any, any>[];
  decide: (input: I, state: S, context: DecisionContext) => E[] | Promise<E[]>;
  /** The answer from the events appended (or recorded, for a retry) and the input. */
  answer: (events: E[], input: I) => Omit<CommandResult, 'position'>;
}

/** The answer of an update or a deletion: the id it was given. */
export const answerInputId = (_: unknown, input: { id: string }) => ({ id: input.id });

/** The generic handler of a decision. */
export function command<I, S, E extends AnyEvent>(decision: Decision<I, S, E>): CommandHandler {
  return async (services, ctx, raw) => {
    const input = parse(decision.input, raw);
    const now = services.now();
    const orgStream = (aggregate: Aggregate<any, any>) => AggregateStore.streamId(aggregate.category, ctx.organisationId);
    const held = (decision.alsoHold ?? []);
    // Ids are chosen once per command: a decision run again after a conflict names the same things (without
    // an idempotency key they are random, and a second draw would orphan what the first attempt set up).
    const ids = new Map<string, string>();
    const idFor = (kind: string, index = 0) => {
      const key = `${kind}\u0000${index}`;
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = newId(ctx, kind, index)));
      return id;
    };
    const context: DecisionContext = {
      ctx, services, now,
      newId: idFor,
      organisation: () => services.organisation(ctx.organisationId),
      async held<S2>(aggregate: Aggregate<S2, never>) {
        if (!held.some((a) => a.category === aggregate.category)) throw new Error(`invariant violated: ${aggregate.category} read without being held`);
        return (await services.aggregates.loadHeld(aggregate, ctx.organisationId)).state;
      },
    };
    const id = decision.stream?.(input, ctx) ?? ctx.organisationId;
    const r = await services.aggregates.execute(decision.aggregate, id, ctx, (state) => decision.decide(input, state, context), held.map(orgStream));
    return { ...decision.answer(r.events, input), position: r.position };
  };
}

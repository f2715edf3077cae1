/**
 * What every command handler may use: the aggregates (load, decide, append), the organisations' locks
 * across processes, the data subjects' keys (crypto-shredding), and the clock.
 */
import { randomUUID } from 'node:crypto';
import { Errors, fail } from '../domain/errors.ts';
import { decideOrganisation, type OrganisationState } from '../domain/accounting/organisation.ts';
import type { SubjectKeys } from '../platform/subject-keys.ts';
import type { AggregateStore, CommandContext } from './aggregate-store.ts';
import { OrganisationAggregate } from './accounting/aggregates.ts';
import { OrganisationCreateInput } from './accounting/inputs.ts';
import { parse } from './handler.ts';
import type { OrganisationLocks } from './organisation-locks.ts';

export class CommandServices {
  constructor(
    readonly aggregates: AggregateStore,
    /** Across processes: postings against guarded deletions (see organisation-locks.ts). */
    readonly locks: OrganisationLocks,
    readonly keys: SubjectKeys,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  now(): string {
    return this.clock().toISOString();
  }

  /** The organisation as its stream says now (every area decides with it: country, features, chart). */
  async organisation(organisationId: string): Promise<OrganisationState> {
    const { state } = await this.aggregates.load(OrganisationAggregate, organisationId);
    if (!state.id) fail(Errors.organisationNotFound, { id: organisationId });
    return state;
  }

  /** A new organisation (operators and the demo create them; no mutation does). */
  async createOrganisation(ctx: Omit<CommandContext, 'organisationId'>, input: unknown, organisationId: string = randomUUID()) {
    const i = parse(OrganisationCreateInput, input);
    const result = await this.aggregates.execute(OrganisationAggregate, organisationId, { ...ctx, organisationId }, (state) =>
      decideOrganisation({ type: 'CreateOrganisation', organisationId, name: i.name, country: i.country, features: i.features, now: this.now() }, state));
    return { id: organisationId, position: result.position };
  }
}

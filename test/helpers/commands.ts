/** Command services over a given aggregate store (a second "process"), with every mutation as a method. */
import type pg from 'pg';
import type { AggregateStore } from '../../commands/aggregate-store.ts';
import type { OrganisationLocks } from '../../commands/organisation-locks.ts';
import { CommandServices } from '../../commands/services.ts';
import { SubjectKeys } from '../../platform/subject-keys.ts';
import { mutationsOf, type Mutate } from '../../service/core.ts';

export type TestCommands = CommandServices & Mutate;

export function testCommands(aggregates: AggregateStore, locks: OrganisationLocks, pool: pg.Pool): TestCommands {
  const services = new CommandServices(aggregates, locks, new SubjectKeys(pool));
  return Object.assign(services, mutationsOf(services)) as TestCommands;
}

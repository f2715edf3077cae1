/**
 * A mutation as an area declares it: its spec name, input and result types, the directives the spec's
 * table gives it, and its handler. The GraphQL SDL, the resolvers, the access checks and the grants'
 * test all derive from these values (modules/).
 */
import type { z } from 'zod';
import type { CommandHandler } from './handler.ts';

export type Feature = 'CORE' | 'ACCOUNTING' | 'SALES' | 'EMPLOYEE_MANAGEMENT';
export type AccessAction = 'add' | 'update' | 'delete';

export interface MutationSpec {
  name: string;
  input: string;
  output: string;
  feature: Feature;
  accessControl: { name: string; resource: string; action: AccessAction };
  filter: 'NO_FILTER' | 'DE_FORBIDDEN';
  /** Validates the input and defines its GraphQL input type (the SDL is generated from it). */
  schema: z.ZodType;
  /** What the result type carries besides `id` (id: false leaves it out): the code, the entry's number, other fields' SDL (`fields`, from CommandResult.fields). */
  returns?: { code?: boolean; number?: boolean; id?: boolean; fields?: string };
  run: CommandHandler;
}

export type Verb = 'create' | 'update' | 'delete' | 'applyGdpr';
const SUFFIX: Record<Verb, string> = { create: 'Create', update: 'Update', delete: 'Delete', applyGdpr: 'ApplyGdpr' };

/**
 * One row in the spec's naming: `create` + `BusinessArea` is
 * createBusinessArea(input: BusinessAreaCreateGLDtoInput!): BusinessAreaOutputCreateGLDto.
 */
export function mutation(
  verb: Verb,
  entity: string,
  schema: z.ZodType,
  feature: Feature,
  access: [name: string, resource: string, action: AccessAction],
  run: CommandHandler,
  extra: Partial<MutationSpec> = {},
): MutationSpec {
  const suffix = SUFFIX[verb];
  return {
    name: `${verb}${entity}`, input: `${entity}${suffix}GLDtoInput`, output: `${entity}Output${suffix}GLDto`, schema, feature,
    accessControl: { name: access[0], resource: access[1], action: access[2] }, filter: 'NO_FILTER', run, ...extra,
  };
}

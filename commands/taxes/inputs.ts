/**
 * Inputs of the sales tax rate mutations (US/CA organisations), validated with zod; each schema is also the
 * GraphQL input type. Sage names no such mutation: they follow the house's create/update/delete shape.
 */
import { z } from 'zod';
import { TaxType } from '../../domain/taxes/enums.ts';
import { gql, named } from '../input-types.ts';

const date = z.iso.date();
/** ISO 3166-2 subdivision: a US state ('US-WA') or a CA province ('CA-ON'); the decider checks it is the organisation's country's. */
const jurisdiction = z.string().regex(/^(US|CA)-[A-Z]{2}$/);
/** Sales tax has no tax type of its own (Sage's NOT_SPECIFIED); any other is refused by the decider. */
const taxType = gql.enumOf('TaxType', TaxType).nullish();

export const TaxCreateInput = named('TaxCreateGLDtoInput', z.object({
  code: z.string().trim().min(1).max(20),
  name: z.string().trim().min(1).max(100),
  percentage: gql.decimal,
  jurisdiction,
  taxType,
  isDefault: z.boolean().nullish().transform((v) => v ?? false),
  validFrom: date.nullish().transform((v) => v ?? null),
}));

/** A change of percentage applies from validFrom (today unless sent); the code, which ids derive from, stays. */
export const TaxUpdateInput = named('TaxUpdateGLDtoInput', z.object({
  id: gql.uuid,
  name: z.string().trim().min(1).max(100).nullish(),
  percentage: gql.decimal.nullish(),
  jurisdiction: jurisdiction.nullish(),
  taxType,
  isDefault: z.boolean().nullish(),
  validFrom: date.nullish(),
}));

export const TaxDeleteInput = named('TaxDeleteGLDtoInput', z.object({ id: gql.uuid }));

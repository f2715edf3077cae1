/** Inputs of the catalogue's mutations, validated with zod; each schema is also the GraphQL input type. */
import { z } from 'zod';
import { ProductType } from '../../domain/catalog/enums.ts';
import { gql, named } from '../input-types.ts';

const text = (max: number) => z.string().max(max).nullish();
/** A flag the client may leave out: absent or null means false. */
const flag = z.boolean().nullish().transform((v) => v ?? false);
const account = gql.uuid.nullish();

export const ProductCreateInput = named('ProductCreateGLDtoInput', z.object({
  code: z.string().min(1).max(30), name: z.string().trim().min(1).max(200), description: text(2000), type: gql.enumOf('ProductType', ProductType),
  unitPrice: gql.decimal.nullish(), taxTreatmentId: gql.uuid.nullish(), salesAccountId: account, purchaseAccountId: account,
  stockManaged: flag, allowNegativeStock: flag, disabled: flag,
}));
export const ProductDeleteInput = named('ProductDeleteGLDtoInput', z.object({ id: gql.uuid }));

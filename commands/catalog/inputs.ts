/** Inputs of the catalogue's mutations, validated with zod; each schema is also the GraphQL input type. */
import { z } from 'zod';
import { ProductCategory } from '../../domain/catalog/enums.ts';
import { gql, named } from '../input-types.ts';

const text = (max: number) => z.string().max(max).nullish();
/** A flag the client may leave out: absent or null means false. */
const flag = z.boolean().nullish().transform((v) => v ?? false);
/** In an update, a field that cannot be cleared: absent or null leaves it as it is. */
const unchangedIfNull = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const name = z.string().trim().min(1).max(200);
const category = gql.enumOf('ProductCategory', ProductCategory);
/** The fields both the creation and an update may set, cleared with null where they can be. */
const clearable = {
  lineDescription: text(2000), comments: text(2000),
  taxGroupId: gql.uuid.nullish(), taxTreatmentId: gql.uuid.nullish(), salesAccountingAccountId: gql.uuid.nullish(), purchaseAccountId: gql.uuid.nullish(),
};
const FLAGS = ['stockManaged', 'allowNegativeStock', 'salesDeliveryNoteBlockingEnabled', 'salesInvoiceBlockingEnabled', 'salesOrderBlockingEnabled'] as const;
const flags = <T extends z.ZodType>(schema: T) => Object.fromEntries(FLAGS.map((f) => [f, schema])) as Record<(typeof FLAGS)[number], T>;

export const ProductCreateInput = named('ProductCreateGLDtoInput', z.object({
  code: z.string().min(1).max(30), name, category: category.nullish().transform((v) => v ?? 'NOT_SPECIFIED'),
  salesUnitPrice: gql.decimal.nullish(), firstSalesDiscount: gql.decimal.nullish(),
  ...clearable, ...flags(flag),
}));
/** Patch style, as Sage's clients send it (id, name, comments, salesUnitPrice): only the fields sent change. */
export const ProductUpdateInput = named('ProductUpdateGLDtoInput', z.object({
  id: gql.uuid, name: unchangedIfNull(name), category: unchangedIfNull(category),
  salesUnitPrice: unchangedIfNull(gql.decimal), firstSalesDiscount: unchangedIfNull(gql.decimal),
  ...clearable, ...flags(unchangedIfNull(z.boolean())), obsolete: unchangedIfNull(z.boolean()),
}));
export const ProductDeleteInput = named('ProductDeleteGLDtoInput', z.object({ id: gql.uuid }));

import * as z from 'zod/mini';

/**
 * `meta.pagination` of the list answers: the page served, the total, and `nextOffset` when more
 * items follow; `truncated` when the page was cut short by the byte limit rather than `limit`.
 *
 * @example
 * const { nextOffset } = PaginationMetaSchema.parse(page.meta).pagination;
 */
export const PaginationMetaSchema = z.object({
  pagination: z.object({
    limit: z.int(),
    offset: z.int(),
    total: z.int(),
    nextOffset: z
      .optional(z.int())
      .check(z.describe('The offset of the next page, when more items follow')),
    truncated: z
      .optional(z.boolean())
      .check(z.describe('True when the page was cut short by limits.maxPageBytes, not by limit')),
  }),
});
/** `meta.pagination` of a list answer. */
export type PaginationMeta = z.infer<typeof PaginationMetaSchema>;

/**
 * The schema of one page of a list answer: `data` (items of `item`) and `meta`, registered as
 * the component `id` of the JSON Schemas and OpenAPI documents.
 *
 * @example
 * export const PolicyPageSchema = pageSchema(PolicySchema, 'PolicyPage');
 */
export function pageSchema<Item extends z.ZodMiniType>(item: Item, id: string) {
  return z
    .object({ data: z.array(item), meta: PaginationMetaSchema })
    .register(z.globalRegistry, { id });
}

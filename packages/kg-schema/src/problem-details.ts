import * as z from 'zod/mini';

/**
 * RFC 9457 problem details as the knowledge graph API answers errors: `type`, `title`, `status`,
 * `detail`, `instance`, dcg's `errors[]` of `{ path, message }`, and any extension members (kept).
 *
 * @example
 * ProblemDetailsSchema.parse({ type: 'about:blank', title: 'Not Found', status: 404 });
 */
export const ProblemDetailsSchema = z.catchall(
  z.object({
    type: z._default(z.string(), 'about:blank'),
    title: z.optional(z.string()),
    status: z.optional(z.int().check(z.gte(100), z.lte(599))),
    detail: z.optional(z.string()),
    instance: z.optional(z.string()),
    errors: z.optional(z.array(z.looseObject({ path: z.string(), message: z.string() }))),
  }),
  z.unknown(),
);

/** Problem details of a failed call (extension members included). */
export type ProblemDetails = z.infer<typeof ProblemDetailsSchema>;

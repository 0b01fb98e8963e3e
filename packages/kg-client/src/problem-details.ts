import { z } from 'zod';

/**
 * RFC 9457 problem details as the knowledge graph API answers errors: `type`, `title`, `status`,
 * `detail`, `instance`, dcg's `errors[]` of `{ path, message }`, and any extension members (kept).
 *
 * @example
 * ProblemDetailsSchema.parse({ type: 'about:blank', title: 'Not Found', status: 404 });
 */
export const ProblemDetailsSchema = z
  .object({
    type: z.string().default('about:blank'),
    title: z.string().optional(),
    status: z.number().int().min(100).max(599).optional(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() }).loose()).optional(),
  })
  .catchall(z.unknown());

/** Problem details of a failed call (extension members included). */
export type ProblemDetails = z.infer<typeof ProblemDetailsSchema>;

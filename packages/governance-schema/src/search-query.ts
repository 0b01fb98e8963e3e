import { InstanceComplianceSchema, MAX_ENVIRONMENT_LENGTH } from '@dcg/contract-schema';
import { z } from 'zod';
import { MAX_SEARCH_OFFSET } from './search-wire';

const csvList = z.union([z.string(), z.array(z.string())]).transform((v) =>
  (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean),
);

/**
 * The query of `GET /v1/marketplace/search` (and of the MCP search tool): `q` up to 512
 * characters, `environment` (optional: every environment when absent), `limit` 1–50 (default
 * 10), `offset` 0–950 (default 0; the answer's `nextOffset` reads the next page), `kind` (system
 * or component kinds, comma separated) and `compliance` (instance compliance states, comma
 * separated).
 *
 * @example
 * MarketplaceSearchQuerySchema.parse({ q: 'customer invoices' }).limit; // 10
 */
export const MarketplaceSearchQuerySchema = z.object({
  q: z.string().trim().min(1, 'q must not be empty').max(512, 'q has at most 512 characters'),
  environment: z
    .string()
    .min(1)
    .max(MAX_ENVIRONMENT_LENGTH)
    .optional()
    .meta({ description: 'Only hits of this environment; every environment when absent' }),
  limit: z.coerce.number().int().min(1).max(50).default(10),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_SEARCH_OFFSET)
    .default(0)
    .meta({ description: 'Hits to skip: the nextOffset of the previous page' }),
  kind: csvList.pipe(z.array(z.string().min(1).max(100)).max(20)).optional(),
  compliance: csvList.pipe(z.array(InstanceComplianceSchema).max(20)).optional(),
});
/** A validated search query. */
export type MarketplaceSearchQuery = z.output<typeof MarketplaceSearchQuerySchema>;

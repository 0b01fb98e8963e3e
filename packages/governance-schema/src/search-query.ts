import { InstanceComplianceSchema, MAX_ENVIRONMENT_LENGTH } from '@dcg/contract-schema';
import { z } from 'zod';

const csvList = z.union([z.string(), z.array(z.string())]).transform((v) =>
  (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean),
);

/**
 * The query of `GET /v1/marketplace/search` (and of the MCP search tool): `q` up to 512
 * characters, `environment`, `limit` 1–50 (default 10), `kind` (system or component kinds, comma
 * separated) and `compliance` (instance compliance states, comma separated).
 *
 * @example
 * MarketplaceSearchQuerySchema.parse({ q: 'customer invoices', environment: 'production' }).limit; // 10
 */
export const MarketplaceSearchQuerySchema = z.object({
  q: z.string().trim().min(1, 'q must not be empty').max(512, 'q has at most 512 characters'),
  environment: z.string().min(1).max(MAX_ENVIRONMENT_LENGTH),
  limit: z.coerce.number().int().min(1).max(50).default(10),
  kind: csvList.pipe(z.array(z.string().min(1).max(100)).max(20)).optional(),
  compliance: csvList.pipe(z.array(InstanceComplianceSchema).max(20)).optional(),
});
/** A validated search query. */
export type MarketplaceSearchQuery = z.output<typeof MarketplaceSearchQuerySchema>;

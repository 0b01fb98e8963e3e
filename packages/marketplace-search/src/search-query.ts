import { z } from 'zod';

/** Compliance of an instance as a whole, for filtering (see {@link instanceCompliance}). */
export const InstanceComplianceSchema = z.enum([
  'compliant',
  'violated',
  'unprocessable',
  'unknown',
  'none',
]);
/** Compliance of an instance as a whole. */
export type InstanceCompliance = z.infer<typeof InstanceComplianceSchema>;

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
  environment: z.string().min(1).max(200),
  limit: z.coerce.number().int().min(1).max(50).default(10),
  kind: csvList.pipe(z.array(z.string().min(1).max(100)).max(20)).optional(),
  compliance: csvList.pipe(z.array(InstanceComplianceSchema).max(20)).optional(),
});
/** A validated search query. */
export type MarketplaceSearchQuery = z.output<typeof MarketplaceSearchQuerySchema>;

/**
 * The compliance of an instance from the states of its data contracts: `violated` if any is
 * violated, else `unprocessable` if any result cannot be processed, else `unknown` if any has no
 * result yet, else `compliant`; `none` without data contracts.
 *
 * @example
 * instanceCompliance(['compliant', 'violated']); // 'violated'
 */
export function instanceCompliance(contractStates: readonly string[]): InstanceCompliance {
  if (contractStates.length === 0) return 'none';
  for (const state of ['violated', 'unprocessable', 'unknown'] as const) {
    if (contractStates.includes(state)) return state;
  }
  return 'compliant';
}

import * as z from 'zod/mini';

/**
 * What is known about a source's ingested graph: the answer of an upload, a pull or a delete.
 *
 * @example
 * GraphInfoSchema.parse({ sourceId: 'demo', triples: 42, searchableDocuments: 10 });
 */
export const GraphInfoSchema = z.object({
  sourceId: z.string(),
  triples: z.int().check(z.gte(0)),
  searchableDocuments: z.int().check(z.gte(0)),
  /** ISO time of the last change since start-up. */
  updatedAt: z.optional(z.string()),
});

/** What is known about a source's ingested graph. */
export type GraphInfo = z.infer<typeof GraphInfoSchema>;

/**
 * One configured source: its modes (ingestion with an optional pull schedule, passthrough) and
 * its graph.
 *
 * @example
 * SourceSummarySchema.parse(listing.sources[0]).modes.ingestion.enabled;
 */
export const SourceSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  modes: z.object({
    ingestion: z.object({ enabled: z.boolean(), schedule: z.optional(z.string()) }),
    passthrough: z.object({ enabled: z.boolean() }),
  }),
  graph: GraphInfoSchema,
});

/** One configured source. */
export type SourceSummary = z.infer<typeof SourceSummarySchema>;

/**
 * The answer of `GET /v1/sources`.
 *
 * @example
 * SourceListSchema.parse(await response.json()).sources.map((source) => source.id);
 */
export const SourceListSchema = z.object({ sources: z.array(SourceSummarySchema) });

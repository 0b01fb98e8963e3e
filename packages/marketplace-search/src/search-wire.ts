import { InstanceComplianceSchema } from '@dcg/contract-schema';
import { z } from 'zod';

/**
 * One search hit, with why it matched: `matchedBy` lists the evidence (exact URN or name, words,
 * meaning), `why` says it in a sentence, `lexical` / `vector` give the ranks behind it.
 *
 * @example
 * SearchHitSchema.parse(hit).why; // 'words: invoice; close in meaning (similarity 0.61, rank 2)'
 */
export const SearchHitSchema = z
  .object({
    systemId: z.string(),
    environment: z.string(),
    name: z.string(),
    kind: z.string(),
    domain: z.string().optional(),
    score: z.number(),
    matchedBy: z.array(z.enum(['exact-urn', 'exact-name', 'words', 'meaning'])),
    why: z.string(),
    lexical: z.object({ rank: z.number().int(), matchedTerms: z.array(z.string()) }).optional(),
    vector: z.object({ rank: z.number().int(), similarity: z.number() }).optional(),
    compliance: InstanceComplianceSchema.optional(),
  })
  .meta({ id: 'MarketplaceSearchHit' });
/** One search hit. */
export type SearchHit = z.infer<typeof SearchHitSchema>;

/**
 * A search answer: `mode` says whether vectors took part, `fallback` why not, `pending` how many
 * instances of the environment have no current embedding yet.
 *
 * @example
 * if (result.mode === 'lexical') console.warn(result.fallback);
 */
export const SearchResultSchema = z
  .object({
    mode: z.enum(['hybrid', 'lexical']),
    fallback: z.string().optional(),
    model: z.string().nullable(),
    pending: z.number().int(),
    hits: z.array(SearchHitSchema),
  })
  .meta({ id: 'MarketplaceSearchResult' });
/** A search answer. */
export type SearchResult = z.infer<typeof SearchResultSchema>;

/**
 * A `createEmbeddings` job: progress (`done` / `total`, `failed`) readable while it runs, at most
 * 20 errors kept; `resumed` counts restarts after its process stopped.
 *
 * @example
 * const job = EmbeddingJobSchema.parse(await res.json());
 */
export const EmbeddingJobSchema = z
  .object({
    id: z.string(),
    environment: z.string(),
    model: z.string(),
    status: z.enum(['running', 'completed', 'failed']),
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    errors: z.array(z.object({ systemId: z.string(), message: z.string() })),
    startedAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
    resumed: z.number().int(),
  })
  .meta({ id: 'EmbeddingJob' });
/** A `createEmbeddings` job. */
export type EmbeddingJob = z.infer<typeof EmbeddingJobSchema>;
/** State of an embedding job. */
export type EmbeddingJobStatus = EmbeddingJob['status'];

/**
 * Embeddings status: the model, how many instances are embedded and pending (missing or stale),
 * embeddings of other models left in the store, the last provider error and running jobs.
 *
 * @example
 * const { pending } = EmbeddingsStatusSchema.parse(await res.json());
 */
export const EmbeddingsStatusSchema = z
  .object({
    enabled: z.boolean(),
    model: z.string().nullable(),
    dimensions: z.number().int().nullable(),
    instances: z.number().int(),
    embedded: z.number().int(),
    pending: z.number().int(),
    otherModels: z.record(z.string(), z.number().int()),
    lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
    runningJobs: z.array(EmbeddingJobSchema),
  })
  .meta({ id: 'EmbeddingsStatus' });
/** Embeddings status. */
export type EmbeddingsStatus = z.infer<typeof EmbeddingsStatusSchema>;

import { ContractComplianceStateSchema, InstanceComplianceSchema } from '@dcg/contract-schema';
import * as z from 'zod/mini';

/** The largest `offset` of a search page (`limit` is at most 50: the first 1,000 hits). */
export const MAX_SEARCH_OFFSET = 950;

/**
 * A data contract (output port) of a search hit, with its latest compliance state.
 *
 * @example
 * SearchHitContractSchema.parse({ id: 'urn:dmb:cmp:finance:orders:0:port', status: 'compliant' });
 */
export const SearchHitContractSchema = z.object({
  id: z.string(),
  name: z.optional(z.string()),
  status: ContractComplianceStateSchema,
});
/** A data contract of a search hit. */
export type SearchHitContract = z.infer<typeof SearchHitContractSchema>;

/**
 * One search hit, with why it matched: `matchedBy` lists the evidence (exact URN or name, words,
 * meaning), `why` says it in a sentence, `lexical` / `vector` give the ranks behind it;
 * `compliance` rolls up the states of its `dataContracts`, so a client needs no second read.
 *
 * @example
 * SearchHitSchema.parse(hit).why; // 'words: invoice; close in meaning (similarity 0.61, rank 2)'
 */
export const SearchHitSchema = z.object({
  systemId: z.string(),
  environment: z.string(),
  name: z.string(),
  kind: z.string(),
  domain: z.optional(z.string()),
  score: z.number(),
  matchedBy: z.array(z.enum(['exact-urn', 'exact-name', 'words', 'meaning'])),
  why: z.string(),
  lexical: z.optional(z.object({ rank: z.int(), matchedTerms: z.array(z.string()) })),
  vector: z.optional(z.object({ rank: z.int(), similarity: z.number() })),
  compliance: z.optional(InstanceComplianceSchema),
  dataContracts: z.optional(z.array(SearchHitContractSchema)),
});
/** One search hit. */
export type SearchHit = z.infer<typeof SearchHitSchema>;

/**
 * A search answer: `mode` says whether vectors took part, `fallback` why not, `pending` how many
 * instances of the environment (of all, without one) have no current embedding yet,
 * `suggestions` the query respelled where a word looked like a typo of an indexed word ("did you
 * mean"); `offset` is the page's first hit and `nextOffset`, when more hits follow, the next one.
 *
 * @example
 * if (result.mode === 'lexical') console.warn(result.fallback);
 */
export const SearchResultSchema = z.object({
  mode: z.enum(['hybrid', 'lexical']),
  fallback: z.optional(z.string()),
  model: z.nullable(z.string()),
  pending: z.int(),
  hits: z.array(SearchHitSchema),
  suggestions: z.optional(z.array(z.string())),
  offset: z.int(),
  nextOffset: z.optional(z.int()),
});
/** A search answer. */
export type SearchResult = z.infer<typeof SearchResultSchema>;

/**
 * A `createEmbeddings` job: progress (`done` / `total`, `failed`) readable while it runs, at most
 * 20 errors kept; `resumed` counts restarts after its process stopped.
 *
 * @example
 * const job = EmbeddingJobSchema.parse(await res.json());
 */
export const EmbeddingJobSchema = z.object({
  id: z.string(),
  environment: z.string(),
  model: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  total: z.int(),
  done: z.int(),
  failed: z.int(),
  errors: z.array(z.object({ systemId: z.string(), message: z.string() })),
  startedAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.nullable(z.string()),
  resumed: z.int(),
});
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
export const EmbeddingsStatusSchema = z.object({
  enabled: z.boolean(),
  model: z.nullable(z.string()),
  dimensions: z.nullable(z.int()),
  instances: z.int(),
  embedded: z.int(),
  pending: z.int(),
  otherModels: z.record(z.string(), z.int()),
  lastError: z.nullable(z.object({ message: z.string(), at: z.string() })),
  runningJobs: z.array(EmbeddingJobSchema),
});
/** Embeddings status. */
export type EmbeddingsStatus = z.infer<typeof EmbeddingsStatusSchema>;

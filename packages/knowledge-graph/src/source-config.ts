import { z } from 'zod';

const sourceId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" or "-", at most 64');

const httpUrl = z.url({ protocol: /^https?$/ });

/**
 * One knowledge source: where its knowledge comes from and which modes it serves.
 * `sparqlEndpoint`, `searchEndpoint` and `defaultGraphUri` let passthrough talk to a plain
 * SPARQL server (e.g. Virtuoso) instead of a dcg source adapter.
 *
 * @example
 * SourceConfigSchema.parse({ id: 'demo', name: 'Demo', modes: { ingestion: { enabled: true }, passthrough: { enabled: false } } });
 */
export const SourceConfigSchema = z
  .object({
    id: sourceId,
    name: z.string().min(1),
    baseUrl: httpUrl.optional(),
    sparqlEndpoint: httpUrl.optional(),
    searchEndpoint: httpUrl.optional(),
    defaultGraphUri: z.string().min(1).optional(),
    modes: z
      .object({
        ingestion: z
          .object({
            enabled: z.boolean(),
            schedule: z.string().min(1).optional(),
          })
          .strict(),
        passthrough: z.object({ enabled: z.boolean() }).strict(),
      })
      .strict(),
  })
  .strict();

/** A configured knowledge source. */
export type SourceConfig = z.infer<typeof SourceConfigSchema>;

/** Default searchable predicates and weights: labels rank above definitions and comments. */
export const DEFAULT_SEARCH_PREDICATES: ReadonlyArray<{ iri: string; weight: number }> = [
  { iri: 'http://www.w3.org/2004/02/skos/core#prefLabel', weight: 3 },
  { iri: 'http://www.w3.org/2000/01/rdf-schema#label', weight: 3 },
  { iri: 'http://www.w3.org/2004/02/skos/core#altLabel', weight: 2 },
  { iri: 'http://www.w3.org/2004/02/skos/core#hiddenLabel', weight: 1.5 },
  { iri: 'http://www.w3.org/2004/02/skos/core#definition', weight: 1 },
  { iri: 'http://purl.org/dc/terms/description', weight: 1 },
  { iri: 'http://www.w3.org/2000/01/rdf-schema#comment', weight: 0.8 },
];

/**
 * Search configuration: the literal predicates that are searchable and their weights.
 *
 * @example
 * SearchConfigSchema.parse({}).predicates.length; // 7 (the defaults)
 */
export const SearchConfigSchema = z
  .object({
    predicates: z
      .array(z.object({ iri: z.url(), weight: z.number().positive().max(100) }).strict())
      .min(1)
      .default(() => DEFAULT_SEARCH_PREDICATES.map((p) => ({ ...p }))),
  })
  .strict();

/** Search configuration. */
export type SearchConfig = z.infer<typeof SearchConfigSchema>;

/**
 * The sources list: ids must be unique.
 *
 * @example
 * SourcesConfigSchema.safeParse([{ id: 'a', ... }, { id: 'a', ... }]).success; // false
 */
export const SourcesConfigSchema = z.array(SourceConfigSchema).superRefine((sources, ctx) => {
  const seen = new Set<string>();
  sources.forEach((source, index) => {
    if (seen.has(source.id)) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'id'],
        message: `duplicate source id "${source.id}"`,
      });
    }
    seen.add(source.id);
  });
});

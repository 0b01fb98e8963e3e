import { z } from 'zod';

const rdfTerm = z.object({
  type: z.enum(['uri', 'literal', 'bnode', 'typed-literal', 'triple']),
  value: z.unknown(),
  'xml:lang': z.string().optional(),
  datatype: z.string().optional(),
});

/**
 * W3C SPARQL 1.1 Query Results JSON (spec C2): `head` plus either `results.bindings` or
 * `boolean`. Used to check what an upstream answers before passing it on.
 *
 * @example
 * SparqlResultsSchema.safeParse({ head: { vars: ['s'] }, results: { bindings: [] } }).success; // true
 */
export const SparqlResultsSchema = z
  .object({
    head: z.object({ vars: z.array(z.string()).optional(), link: z.array(z.string()).optional() }),
    results: z.object({ bindings: z.array(z.record(z.string(), rdfTerm)) }).optional(),
    boolean: z.boolean().optional(),
  })
  .refine((r) => r.results !== undefined || r.boolean !== undefined, {
    message: 'neither results nor boolean',
  });

/** SPARQL JSON results. */
export type SparqlResults = z.infer<typeof SparqlResultsSchema>;

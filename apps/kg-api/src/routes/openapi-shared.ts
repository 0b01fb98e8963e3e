import { ProblemSchema } from '@dcg/http-kit';
import { z } from 'zod';

/** A problem-details response entry for OpenAPI route definitions. */
export function problem(description: string) {
  return { description, content: { 'application/problem+json': { schema: ProblemSchema } } };
}

/** `{sourceId}` path parameter. */
export const SourceParamsSchema = z.object({
  sourceId: z
    .string()
    .min(1)
    .meta({ param: { name: 'sourceId', in: 'path' }, example: 'demo' }),
});

/** What is known about a source's ingested graph. */
export const GraphInfoSchema = z
  .object({
    sourceId: z.string(),
    triples: z.number().int(),
    searchableDocuments: z.number().int(),
    updatedAt: z.string().optional().describe('ISO time of the last change since start-up'),
  })
  .meta({ id: 'GraphInfo' });

/** A JSON object of SPARQL 1.1 Query Results JSON. */
export const SparqlJsonSchema = z
  .object({
    head: z.object({ vars: z.array(z.string()).optional() }),
    results: z.object({ bindings: z.array(z.record(z.string(), z.unknown())) }).optional(),
    boolean: z.boolean().optional(),
  })
  .meta({ id: 'SparqlResults' });

/** Security requirement of the write endpoints. */
export const bearerSecurity = [{ bearerAuth: [] }];

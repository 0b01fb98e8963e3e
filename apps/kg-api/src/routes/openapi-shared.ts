import { ProblemSchema } from '@dcg/http-kit';
import { SearchResponseSchema } from '@dcg/kg-schema';
import { z } from 'zod';

/**
 * A problem-details response entry for OpenAPI route definitions.
 *
 * @example
 * responses: { 404: problem('unknown source') }
 */
export function problem(description: string) {
  return { description, content: { 'application/problem+json': { schema: ProblemSchema } } };
}

/**
 * `{sourceId}` path parameter.
 *
 * @example
 * request: { params: SourceParamsSchema }
 */
export const SourceParamsSchema = z.object({
  sourceId: z
    .string()
    .min(1)
    .meta({ param: { name: 'sourceId', in: 'path' }, example: 'demo' }),
});

/**
 * What is known about a source's ingested graph.
 *
 * @example
 * content: { 'application/json': { schema: GraphInfoSchema } }
 */
export const GraphInfoSchema = z
  .object({
    sourceId: z.string(),
    triples: z.number().int(),
    searchableDocuments: z.number().int(),
    updatedAt: z.string().optional().describe('ISO time of the last change since start-up'),
  })
  .meta({ id: 'GraphInfo' });

/**
 * A JSON object of SPARQL 1.1 Query Results JSON (for the OpenAPI document only: the schema that
 * validates results is `SparqlResultsSchema` of `@dcg/kg-schema`, whose lazy RDF-star terms and
 * `typed-literal` transform the OpenAPI generator cannot express).
 *
 * @example
 * content: { 'application/sparql-results+json': { schema: SparqlJsonSchema } }
 */
export const SparqlJsonSchema = z
  .object({
    head: z.object({ vars: z.array(z.string()).optional() }),
    results: z.object({ bindings: z.array(z.record(z.string(), z.unknown())) }).optional(),
    boolean: z.boolean().optional(),
  })
  .meta({ id: 'SparqlResults' });

/**
 * Security requirement of the write endpoints.
 *
 * @example
 * createRoute({ ..., security: bearerSecurity })
 */
export const bearerSecurity = [{ bearerAuth: [] }];

/**
 * One page of search results, for OpenAPI: kg-schema's `SearchResponseSchema` (the one schema of
 * the wire). It is written with `zod/mini` (that keeps kg-client's browser bundle small), which
 * @hono/zod-openapi cannot walk, so the route gets a classic zod schema that checks with it and is
 * documented by its JSON Schema.
 *
 * @example
 * content: { 'application/json': { schema: SearchResponseOpenApiSchema } }
 */
export const SearchResponseOpenApiSchema = (() => {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(SearchResponseSchema);
  return z
    .custom<z.infer<typeof SearchResponseSchema>>(
      (value) => SearchResponseSchema.safeParse(value).success,
    )
    .meta(jsonSchema);
})();

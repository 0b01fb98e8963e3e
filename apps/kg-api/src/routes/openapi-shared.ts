import {
  SearchResponseSchema,
  GraphInfoSchema as WireGraphInfoSchema,
  SourceListSchema as WireSourceListSchema,
} from '@dcg/kg-schema';
import { z } from 'zod';
import type * as zm from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';

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
 * What is known about a source's ingested graph: kg-schema's `GraphInfoSchema`, for OpenAPI.
 *
 * @example
 * content: { 'application/json': { schema: GraphInfoSchema } }
 */
export const GraphInfoSchema = openApiSchema(WireGraphInfoSchema, 'GraphInfo');

/**
 * The answer of `GET /v1/sources`: kg-schema's `SourceListSchema`, for OpenAPI.
 *
 * @example
 * content: { 'application/json': { schema: SourceListSchema } }
 */
export const SourceListSchema = openApiSchema(WireSourceListSchema, 'SourceList');

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
export const SearchResponseOpenApiSchema = openApiSchema(SearchResponseSchema);

/**
 * A wire schema of kg-schema (written with `zod/mini`, which keeps kg-client's browser bundle
 * small and which @hono/zod-openapi cannot walk) as a classic zod schema that checks with it and
 * is documented by its JSON Schema, under `id` in the OpenAPI components when given.
 */
function openApiSchema<S extends ZodMiniType>(wire: S, id?: string) {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(wire);
  return z
    .custom<zm.infer<S>>((value) => wire.safeParse(value).success)
    .meta(id ? { id, ...jsonSchema } : jsonSchema);
}

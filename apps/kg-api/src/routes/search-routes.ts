import { openApiJson, openApiProblem } from '@dcg/http-kit';
import type { KnowledgeBase } from '@dcg/knowledge-graph';
import { InternalSearchQuerySchema } from '@dcg/knowledge-graph';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { KgEnv } from '../app-env';
import type { Guards } from '../auth';
import { SearchResponseOpenApiSchema } from './openapi-shared';

/**
 * `GET /v1/search/query`: ranked text search over the ingested knowledge (spec C1).
 *
 * @example
 * mountSearchRoutes(app, { kb, guards });
 */
export function mountSearchRoutes(
  app: OpenAPIHono<KgEnv>,
  deps: { kb: KnowledgeBase; guards: Guards },
): void {
  const route = createRoute({
    method: 'get',
    path: '/v1/search/query',
    operationId: 'search',
    tags: ['search'],
    summary: 'Search the ingested knowledge; answers IRIs, best first',
    description:
      'Matches the configured literal predicates only (labels above definitions; exact words above prefixes of the last word above typos; full Unicode case folding, so `strasse` finds `Straße`; diacritics and punctuation folded). Optional filters: `lang` (language ranges, repeated or comma-separated, matched as SPARQL `langMatches`: `en` finds `en-US` literals; untagged literals never match), `type` (rdf:type IRIs) and `scheme` (skos:inScheme IRIs), each repeated for "any of"; `type` and `scheme` together must both hold.',
    middleware: [deps.guards.read] as const,
    request: { query: InternalSearchQuerySchema },
    responses: {
      200: openApiJson('One page of results', SearchResponseOpenApiSchema),
      400: openApiProblem(
        'term missing or too long, offset or limit out of range, lang not a language tag, type or scheme not an absolute IRI, more than 16 values of a filter',
      ),
      401: openApiProblem('reads need a key (auth.readsRequireKey)'),
    },
  });
  app.openapi(route, (c) => {
    const { term, offset, limit, lang, type, scheme } = c.req.valid('query');
    return c.json(deps.kb.search(term, { offset, limit, lang, types: type, schemes: scheme }), 200);
  });
}

import { ProblemError } from '@dcg/http-kit';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * The query text of a SPARQL 1.1 protocol request: `GET ?query=`, `POST` with
 * `application/sparql-query`, or `POST` with a form `query=`. Anything else is a 400/415 problem.
 *
 * @example
 * const text = await readSparqlQuery(c);
 */
export async function readSparqlQuery(c: Context): Promise<string> {
  let query: string | undefined;
  if (c.req.method === 'GET') {
    query = c.req.query('query');
  } else {
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type === 'application/sparql-query') {
      query = await c.req.text();
    } else if (type === 'application/x-www-form-urlencoded') {
      query = new URLSearchParams(await c.req.text()).get('query') ?? undefined;
    } else {
      throw new ProblemError({
        status: 415,
        title: 'Unsupported Media Type',
        detail:
          'Send the query as application/sparql-query, as a form field query= (application/x-www-form-urlencoded), or with GET ?query=',
      });
    }
  }
  if (query === undefined || query.trim() === '') {
    throw new ProblemError({
      status: 400,
      title: 'Invalid request',
      detail: 'A SPARQL query is required (query parameter or body)',
      errors: [{ path: '$.query', message: 'required' }],
    });
  }
  return query;
}

/** Largest SPARQL request body accepted (a query, not data). */
export const MAX_SPARQL_BODY_BYTES = 1024 * 1024;

/**
 * Refuses SPARQL request bodies above {@link MAX_SPARQL_BODY_BYTES} with a 413 problem.
 *
 * @example
 * app.post('/v1/graph/sparql', sparqlBodyLimit, handler);
 */
export const sparqlBodyLimit = bodyLimit({
  maxSize: MAX_SPARQL_BODY_BYTES,
  onError: () => {
    throw new ProblemError({
      status: 413,
      title: 'Payload Too Large',
      detail: `A SPARQL request body may have at most ${MAX_SPARQL_BODY_BYTES} bytes`,
    });
  },
});

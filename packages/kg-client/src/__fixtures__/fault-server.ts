import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { serveApp } from './serve-app';

/**
 * A real HTTP server whose answers are chosen by the request, so each test picks its fault: the
 * search `term` (or the first line of a SPARQL query, `# fault`) names what happens. It counts
 * the requests per term/fault, and records the last request's headers.
 *
 *   ok-N          N results (IRIs https://ex.org/c/0 …), paged by offset/limit
 *   503-once      503 with Retry-After: 0, then ok
 *   503-always    always 503
 *   503-later     503 with Retry-After: 3600
 *   503-bare      503 without Retry-After (how kg-api answers its own query timeout)
 *   500 / 502     that status with a problem document
 *   400           a problem document with extension members
 *   html-502      an HTML error page
 *   reset-once    connection destroyed without an answer, then ok
 *   slow-headers  answers after 5 s
 *   slow-body     sends headers and half a body, never finishes
 *   bad-json      200 with text that is not JSON
 *   bad-shape     200 with a relative IRI among the results
 *   huge          200 with 2 MB of valid JSON
 *   bad-utf8      200 with invalid UTF-8
 *   no-next       a page with hasNextPage false although totalResults says more
 */
export async function startFaultServer() {
  const counts = new Map<string, number>();
  let lastHeaders: Record<string, string> = {};
  let lastUrl = '';
  const count = (key: string) => {
    const next = (counts.get(key) ?? 0) + 1;
    counts.set(key, next);
    return next;
  };
  const app = new Hono<{ Bindings: HttpBindings }>();

  const answer = async (
    fault: string,
    attempt: number,
    ok: () => Response,
    incoming: HttpBindings['incoming'],
  ): Promise<Response> => {
    const problem = (status: number, extra: Record<string, unknown> = {}) =>
      new Response(
        JSON.stringify({
          type: 'about:blank',
          title: `fault ${status}`,
          status,
          detail: `injected ${fault}`,
          ...extra,
        }),
        {
          status,
          headers: {
            'content-type': 'application/problem+json',
            ...(status === 503 ? { 'retry-after': '0' } : {}),
          },
        },
      );
    switch (fault) {
      case '503-once':
        return attempt === 1 ? problem(503) : ok();
      case '503-always':
        return problem(503);
      case '503-bare':
        return new Response(JSON.stringify({ title: 'Query timed out', status: 503 }), {
          status: 503,
          headers: { 'content-type': 'application/problem+json' },
        });
      case '503-later':
        return new Response(
          JSON.stringify({ title: 'maintenance', status: 503, detail: 'back in an hour' }),
          {
            status: 503,
            headers: { 'content-type': 'application/problem+json', 'retry-after': '3600' },
          },
        );
      case '500':
        return problem(500);
      case '502':
        return problem(502);
      case '400':
        return problem(400, {
          type: 'https://dcg.example/problems/bad-term',
          errors: [{ path: '$.term', message: 'too long' }],
          hint: 'shorter',
          status: 418,
        });
      case 'html-502':
        return new Response('<html><body><h1>Bad Gateway</h1> upstream down</body></html>', {
          status: 502,
          headers: { 'content-type': 'text/html' },
        });
      case 'reset-once':
        if (attempt === 1) {
          incoming.socket.destroy();
          return new Promise<Response>(() => undefined);
        }
        return ok();
      case 'slow-headers':
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        return ok();
      case 'slow-body': {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"results": ['));
          },
        });
        return new Response(stream, { headers: { 'content-type': 'application/json' } });
      }
      case 'bad-json':
        return new Response('{"results": [', { headers: { 'content-type': 'application/json' } });
      case 'bad-shape':
        return Response.json({
          results: ['https://ex.org/c/0', 'not an iri'],
          totalResults: 2,
          offset: 0,
          limit: 10,
        });
      case 'huge':
        return Response.json({
          results: [],
          totalResults: 0,
          offset: 0,
          limit: 10,
          padding: 'x'.repeat(2_000_000),
        });
      case 'bad-utf8':
        return new Response(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), {
          headers: { 'content-type': 'application/json' },
        });
      default:
        return ok();
    }
  };

  const searchPage = (term: string, offset: number, limit: number, total: number) => {
    const results: string[] = [];
    for (let index = offset; index < Math.min(total, offset + limit); index += 1) {
      results.push(`https://ex.org/${encodeURIComponent(term)}/${index}`);
    }
    return Response.json({ results, totalResults: total, offset, limit });
  };

  const search = async (c: {
    req: {
      query: (name: string) => string | undefined;
      header: () => Record<string, string>;
      url: string;
    };
    env: HttpBindings;
  }) => {
    const term = c.req.query('term') ?? '';
    const offset = Number(c.req.query('offset') ?? 0);
    const limit = Number(c.req.query('limit') ?? 10);
    lastHeaders = c.req.header();
    lastUrl = c.req.url;
    const attempt = count(term);
    const total = /^ok-(\d+)$/.exec(term)?.[1];
    if (term === 'no-next') {
      return Response.json({
        results: ['https://ex.org/only'],
        totalResults: 50,
        offset,
        limit,
        hasNextPage: false,
      });
    }
    if (term === 'empty-page') {
      return Response.json({
        results: offset === 0 ? ['https://ex.org/a'] : [],
        totalResults: 50,
        offset,
        limit,
      });
    }
    if (term === 'shifting') {
      // The ranking moves between requests: page 2 repeats an IRI of page 1.
      const iris =
        offset === 0
          ? ['https://ex.org/a', 'https://ex.org/b']
          : ['https://ex.org/b', 'https://ex.org/c'];
      return Response.json({ results: iris, totalResults: 4, offset, limit });
    }
    return answer(
      term,
      attempt,
      () => searchPage(term, offset, limit, total ? Number(total) : 3),
      c.env.incoming,
    );
  };
  app.get('/v1/search/query', (c) => search(c));
  app.get('/passthrough/:id/v1/search/query', (c) => search(c));

  const sparql = async (c: {
    req: { text: () => Promise<string>; header: () => Record<string, string>; url: string };
    env: HttpBindings;
  }) => {
    lastHeaders = c.req.header();
    lastUrl = c.req.url;
    const query = await c.req.text();
    const fault = /^# (\S+)/.exec(query)?.[1] ?? 'ok';
    const attempt = count(`sparql:${fault}`);
    if (fault === 'ask') return Response.json({ head: {}, boolean: true });
    if (fault === 'unknown-var') {
      return Response.json({
        head: { vars: ['s'] },
        results: { bindings: [{ x: { type: 'uri', value: 'https://ex.org/x' } }] },
      });
    }
    return answer(
      fault,
      attempt,
      () =>
        Response.json(
          {
            head: { vars: ['s', 'n', 'label'] },
            results: {
              bindings: [
                {
                  s: { type: 'uri', value: 'https://ex.org/s' },
                  n: {
                    type: 'typed-literal',
                    value: '7',
                    datatype: 'http://www.w3.org/2001/XMLSchema#integer',
                  },
                  label: { type: 'literal', value: 'Sept', 'xml:lang': 'fr' },
                },
                { s: { type: 'bnode', value: 'b0' } },
              ],
            },
          },
          { headers: { 'content-type': 'application/sparql-results+json' } },
        ),
      c.env.incoming,
    );
  };
  app.post('/v1/graph/sparql', (c) => sparql(c));
  app.post('/passthrough/:id/v1/graph/sparql', (c) => sparql(c));

  const served = await serveApp(app);
  return {
    ...served,
    /** Requests seen for a search term, or for `sparql:<fault>`. */
    count: (key: string) => counts.get(key) ?? 0,
    lastHeaders: () => lastHeaders,
    lastUrl: () => lastUrl,
  };
}

import { openApiProblem, openApiProblems, ProblemError, problemResponse } from '@dcg/http-kit';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { KgEnv } from '../app-env';
import type { Guards } from '../auth';
import { graphTransferOpenApi } from './graph-upload-openapi';
import { guardedProblems } from './guarded-problems';
import { bearerSecurity, GraphInfoSchema } from './openapi-shared';

/** The graph of a source, as a SPARQL 1.1 Graph Store Protocol client names it. */
const SOURCE_GRAPH_URN = 'urn:dcg:source:';
const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SOURCE_GRAPH_PATH = /^\/v1\/sources\/([A-Za-z0-9][A-Za-z0-9._-]{0,63})\/graph$/;

type SourceHandler = (c: Context<KgEnv>, sourceId: string) => Promise<Response>;

function invalidGraph(detail: string, message: string): ProblemError {
  return new ProblemError({
    status: 400,
    title: 'Invalid request',
    detail,
    errors: [{ path: '$.graph', message, code: 'invalid_graph' }],
  });
}

/**
 * The source whose graph a Graph Store Protocol `graph` IRI names: `urn:dcg:source:{id}`, or the
 * IRI of the source's graph resource on this service, `{publicUrl}/v1/sources/{id}/graph` (as
 * direct identification names it; without `publicUrl`, the scheme and host of the request).
 * IRIs are compared as strings (SPARQL 1.1 Graph Store §4.2, RDF 1.1 §3.2): another host, a
 * query or a fragment names another graph, which this service does not hold, and a repeated
 * `graph` is ambiguous; each is a 400. `default` is refused too (the default graph is the union
 * of all sources' graphs, which no single upload can replace).
 */
function sourceOfGraph(c: Context<KgEnv>, publicUrl: string | undefined): string {
  const graphs = c.req.queries('graph') ?? [];
  const graph = graphs[0];
  if (graph === undefined) {
    const detail =
      c.req.query('default') !== undefined
        ? 'The default graph is the union of every source’s graph and is not written or read as one here: name a source’s graph with graph=urn:dcg:source:{id}'
        : 'graph= is required: urn:dcg:source:{id} or the URL …/v1/sources/{id}/graph';
    throw invalidGraph(detail, 'required');
  }
  if (graphs.length > 1) {
    throw invalidGraph(
      `graph= is given ${graphs.length} times: name one graph`,
      'given more than once',
    );
  }
  const base = publicUrl ?? new URL(c.req.url).origin;
  if (graph.startsWith(SOURCE_GRAPH_URN)) {
    const id = graph.slice(SOURCE_GRAPH_URN.length);
    if (SOURCE_ID.test(id)) return id;
  } else if (graph.startsWith(`${base}/`)) {
    const id = SOURCE_GRAPH_PATH.exec(graph.slice(base.length))?.[1];
    if (id) return id;
  }
  throw invalidGraph(
    `graph=${graph.slice(0, 200)} names no graph of this service: use urn:dcg:source:{id} or ${base}/v1/sources/{id}/graph (no other host, query or fragment)`,
    'not a source graph IRI of this service',
  );
}

/**
 * SPARQL 1.1 Graph Store HTTP Protocol, indirect identification, on the source graphs:
 * `GET`/`HEAD` (download by Accept), `PUT` (replace, as an upload) and `DELETE`
 * `/v1/graph/store?graph=urn:dcg:source:{id}`; `POST` (merge) is answered 405: a source's graph
 * is only ever replaced whole, atomically.
 *
 * @example
 * mountGraphStoreRoutes(app, { guards, uploadLimit, download, replace, remove, publicUrl: undefined });
 */
export function mountGraphStoreRoutes(
  app: OpenAPIHono<KgEnv>,
  deps: {
    guards: Guards;
    uploadLimit: MiddlewareHandler;
    download: SourceHandler;
    replace: SourceHandler;
    remove: SourceHandler;
    /** `publicUrl` of the configuration: graph IRIs of this service start with it. */
    publicUrl: string | undefined;
  },
): void {
  const path = '/v1/graph/store';
  const graph = z
    .string()
    .describe(
      'urn:dcg:source:{id}, or the URL of the source graph on this service ({publicUrl}/v1/sources/{id}/graph), once',
    );
  const common = {
    tags: ['sources'],
    request: { query: z.object({ graph }) },
  };
  app.openAPIRegistry.registerPath({
    ...common,
    method: 'get',
    path,
    operationId: 'graphStoreGet',
    summary: "Graph Store Protocol: a source's graph as RDF (by Accept)",
    responses: {
      200: { description: 'The graph', content: graphTransferOpenApi.downloadContent },
      400: openApiProblem(
        'no graph, default, a repeated graph, or an IRI that names no source graph of this service',
      ),
      ...openApiProblems({
        404: 'unknown source',
        406: 'Accept names no format the graph can be written in',
      }),
    },
  });
  app.openAPIRegistry.registerPath({
    ...common,
    method: 'put',
    path,
    operationId: 'graphStorePut',
    summary: "Graph Store Protocol: replaces a source's graph (as PUT /v1/sources/{id}/graph)",
    security: bearerSecurity,
    request: {
      query: z.object({ graph, allowEmpty: graphTransferOpenApi.allowEmpty }),
      body: graphTransferOpenApi.uploadBody,
    },
    responses: graphTransferOpenApi.uploadResponses,
  });
  app.openAPIRegistry.registerPath({
    ...common,
    method: 'delete',
    path,
    operationId: 'graphStoreDelete',
    summary: "Graph Store Protocol: removes a source's ingested triples",
    security: bearerSecurity,
    responses: {
      200: { description: 'Removed', content: { 'application/json': { schema: GraphInfoSchema } } },
      400: openApiProblem(
        'no graph, default, a repeated graph, or an IRI that names no source graph of this service',
      ),
      ...guardedProblems({
        403: 'the key may not write',
        404: 'unknown source',
      }),
    },
  });

  const source = (c: Context<KgEnv>) => sourceOfGraph(c, deps.publicUrl);
  app.get(path, deps.guards.read, (c) => deps.download(c, source(c)));
  app.put(path, deps.guards.write, deps.uploadLimit, (c) => deps.replace(c, source(c)));
  app.delete(path, deps.guards.write, (c) => deps.remove(c, source(c)));
  app.all(path, (c) =>
    problemResponse(
      {
        status: 405,
        title: 'Method Not Allowed',
        detail: `${c.req.method} is not served here: a source's graph is replaced whole (PUT), never merged (POST)`,
        instance: c.req.path,
      },
      { allow: 'GET, HEAD, PUT, DELETE' },
    ),
  );
}

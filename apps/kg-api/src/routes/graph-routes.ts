import {
  bearerGuarded,
  openApiJson,
  openApiProblem,
  openApiProblems,
  ProblemError,
} from '@dcg/http-kit';
import {
  type KnowledgeBase,
  KnowledgeGraphError,
  mediaTypeOfRdfFormat,
  type ParseRdfOptions,
  parseRdf,
  RDF_MEDIA_TYPES,
  rdfFormatFromAccept,
  rdfFormatFromMediaType,
  type SourceIngestion,
  serializeGraph,
  WRITABLE_RDF_FORMATS,
} from '@dcg/knowledge-graph';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Quad } from 'n3';
import { z } from 'zod';
import type { KgEnv } from '../app-env';
import type { Guards } from '../auth';
import type { IngestMetrics } from '../ingest-metrics';
import { kgProblemType } from '../kg-problems';
import { strictUtf8InSteps } from '../sparql-request';
import { mountGraphStoreRoutes } from './graph-store-routes';
import { graphTransferOpenApi } from './graph-upload-openapi';
import { guardedProblems } from './guarded-problems';
import {
  bearerSecurity,
  GraphInfoSchema,
  SourceListSchema,
  SourceParamsSchema,
} from './openapi-shared';

/**
 * Sources and their graphs: list, upload (`PUT` Turtle, N-Triples, N-Quads, TriG, JSON-LD or
 * RDF/XML), download, delete, and pull from the source adapter (`POST …/ingest`); the same
 * upload, download and delete through the Graph Store Protocol (`/v1/graph/store?graph=`).
 *
 * @example
 * mountGraphRoutes(app, { kb, guards, ingestion, maxUploadBytes: 512 * 2 ** 20, parse: {} });
 */
export function mountGraphRoutes(
  app: OpenAPIHono<KgEnv>,
  deps: {
    kb: KnowledgeBase;
    guards: Guards;
    ingestion: Pick<SourceIngestion, 'pull'>;
    ingestMetrics: IngestMetrics;
    maxUploadBytes: number;
    /** `publicUrl` of the configuration (Graph Store IRIs). */
    publicUrl?: string | undefined;
    /** How uploads are parsed: the converter off the main thread and the depth limits. */
    parse: Pick<ParseRdfOptions, 'convert' | 'maxJsonDepth' | 'maxXmlDepth'>;
  },
): void {
  const { kb, guards } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/sources',
      operationId: 'listSources',
      tags: ['sources'],
      summary: 'Configured sources and what each has ingested',
      middleware: [guards.read] as const,
      responses: {
        200: {
          description: 'The sources',
          content: {
            'application/json': { schema: SourceListSchema },
          },
        },
      },
    }),
    (c) =>
      c.json(
        {
          sources: kb.sources().map((s) => ({
            id: s.id,
            name: s.name,
            modes: s.modes,
            graph: kb.graphInfo(s.id),
          })),
        },
        200,
      ),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/sources/{sourceId}/graph',
      operationId: 'getSourceGraph',
      tags: ['sources'],
      summary: "What a source's graph holds",
      middleware: [guards.read] as const,
      request: { params: SourceParamsSchema },
      responses: {
        200: openApiJson('Graph facts', GraphInfoSchema),
        404: openApiProblem('unknown source'),
      },
    }),
    (c) => {
      const { sourceId } = c.req.valid('param');
      return c.json(kb.graphInfo(sourceId), 200);
    },
  );

  // The writes on one source: behind a writer key, the source named in the path.
  const sourceWrite = {
    ...bearerGuarded(guards.write),
    request: { params: SourceParamsSchema },
  };

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/sources/{sourceId}/graph',
      operationId: 'deleteSourceGraph',
      tags: ['sources'],
      summary: "Removes a source's ingested triples",
      ...sourceWrite,
      responses: {
        200: openApiJson('Removed', GraphInfoSchema),
        ...guardedProblems({
          403: 'the key may not write',
          404: 'unknown source',
        }),
      },
    }),
    async (c) => {
      const { sourceId } = c.req.valid('param');
      return c.json(await kb.removeGraph(sourceId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/sources/{sourceId}/ingest',
      operationId: 'ingestSource',
      tags: ['sources'],
      summary: "Pulls the source's graph from its adapter (GET {baseUrl}/v1/graph/jsonld) now",
      ...sourceWrite,
      responses: {
        200: openApiJson('Ingested', GraphInfoSchema),
        ...guardedProblems({
          403: 'ingestion not enabled for the source, or the key may not write',
          404: 'unknown source',
          409: 'the source has no baseUrl',
          502: 'the adapter failed or sent invalid JSON-LD',
          504: 'the adapter did not answer in time',
        }),
      },
    }),
    async (c) => {
      const { sourceId } = c.req.valid('param');
      const info = await deps.ingestMetrics.track(sourceId, 'pull', () =>
        deps.ingestion.pull(sourceId),
      );
      return c.json(info, 200);
    },
  );

  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/v1/sources/{sourceId}/graph/content',
    operationId: 'getSourceGraphContent',
    tags: ['sources'],
    summary: "Downloads a source's graph as ingested",
    description:
      'The format follows Accept: text/turtle, application/n-triples (default), application/n-quads or application/trig.',
    request: { params: SourceParamsSchema },
    responses: {
      200: { description: 'The graph', content: graphTransferOpenApi.downloadContent },
      ...openApiProblems({
        404: 'unknown source',
        406: 'Accept names no format the graph can be written in',
      }),
    },
  });
  const download = async (c: Context<KgEnv>, sourceId: string) => {
    const quads = kb.quads(sourceId);
    const format = rdfFormatFromAccept(c.req.header('accept'));
    if (!format) {
      throw new ProblemError({
        status: 406,
        title: 'Not Acceptable',
        detail: `The graph can be written as ${WRITABLE_RDF_FORMATS.map(mediaTypeOfRdfFormat).join(', ')}`,
      });
    }
    return c.body(serializeGraph(quads, format, EXPORT_PREFIXES), 200, {
      'content-type': `${mediaTypeOfRdfFormat(format)}; charset=utf-8`,
    });
  };
  app.get('/v1/sources/:sourceId/graph/content', guards.read, (c) =>
    download(c, c.req.param('sourceId')),
  );

  // The upload reads a raw body of several media types, which the OpenAPI validator would try to
  // parse as JSON for JSON-LD: it is documented in the registry and served by a plain handler.
  app.openAPIRegistry.registerPath({
    method: 'put',
    path: '/v1/sources/{sourceId}/graph',
    operationId: 'putSourceGraph',
    tags: ['sources'],
    summary: "Replaces a source's graph with the uploaded document, atomically",
    description:
      'The format follows Content-Type. A malformed document changes nothing and gets a 400 with the line and column of the error; text that is not UTF-8 gets a 400 with the byte offset. A document that yields no triples (an empty body, `{}`, `null`) is refused with 400 unless `allowEmpty=true` says the graph is meant to be emptied. A document nested deeper than `ingestion.maxJsonLdDepth` (JSON-LD) or `ingestion.maxRdfXmlDepth` (RDF/XML), or whose XML entities expand too far, is refused before parsing with 422 `document_too_costly` and the line and column; so is one whose conversion runs into a heap or time limit of the converter. Answered once durable.',
    security: bearerSecurity,
    request: {
      params: SourceParamsSchema,
      query: z.object({ allowEmpty: graphTransferOpenApi.allowEmpty }),
      body: graphTransferOpenApi.uploadBody,
    },
    responses: graphTransferOpenApi.uploadResponses,
  });
  const uploadLimit = bodyLimit({
    maxSize: deps.maxUploadBytes,
    onError: () => {
      throw new ProblemError({
        status: 413,
        title: 'Payload Too Large',
        detail: `The upload is larger than ${deps.maxUploadBytes} bytes (ingestion.maxUploadBytes)`,
      });
    },
  });
  const replace = async (c: Context<KgEnv>, sourceId: string) => {
    kb.sourceAcceptingUploads(sourceId);
    const contentType = c.req.header('content-type');
    const format = rdfFormatFromMediaType(contentType);
    if (!format) {
      throw new ProblemError({
        status: 415,
        title: 'Unsupported Media Type',
        detail: `Content-Type ${contentType ?? '(none)'} is not an RDF format; use one of ${RDF_MEDIA_TYPES.join(', ')}`,
      });
    }
    const allowEmpty = parseAllowEmpty(c.req.query('allowEmpty'));
    const text = await strictUtf8InSteps(new Uint8Array(await c.req.arrayBuffer()), 'body');
    // The parser streams into the new store (terms interned as they arrive): no array of the
    // document's quads. A failure inside leaves the graph as it was.
    const produce = async (add: (quad: Quad) => void) => {
      const parsed = await parseRdf(text, format, { ...deps.parse, onQuad: add });
      if (!parsed.success) {
        const issue = parsed.issues[0] ?? { message: 'syntax error', line: 1, column: 1 };
        if (parsed.exceeded === 'depth' || parsed.exceeded === 'expansion') {
          // Maybe valid, but refused before parsing for what it would cost; the place is known.
          const setting =
            parsed.exceeded === 'expansion'
              ? ''
              : format === 'json-ld'
                ? ' (ingestion.maxJsonLdDepth)'
                : ' (ingestion.maxRdfXmlDepth)';
          throw new ProblemError({
            type: kgProblemType('document_too_costly'),
            status: 422,
            title: 'Document too costly to convert',
            detail: `${format} document refused at line ${issue.line}, column ${issue.column}: ${issue.message}${setting}. Nothing was changed.`,
            code: 'document_too_costly',
            line: issue.line,
            column: issue.column,
          });
        }
        if (parsed.exceeded) {
          // Maybe valid, but over a limit of the converter (ingestion.jsonLdWorkerHeapMb, …TimeoutMs).
          throw new KnowledgeGraphError(
            'document_too_costly',
            `${issue.message}. Nothing was changed.`,
          );
        }
        throw new ProblemError({
          type: kgProblemType('rdf_syntax'),
          status: 400,
          title: 'RDF syntax error',
          detail: `${format} syntax error at line ${issue.line}, column ${issue.column}: ${issue.message}. Nothing was changed.`,
          line: issue.line,
          column: issue.column,
        });
      }
    };
    const info = await kb.replaceGraph(sourceId, produce, { allowEmpty });
    c.get('logger').info('graph replaced', { sourceId, triples: info.triples, format });
    return c.json(info, 200);
  };
  // Both upload routes (this one and the Graph Store Protocol's PUT) count as ingests.
  const upload = (c: Context<KgEnv>, sourceId: string) =>
    deps.ingestMetrics.track(sourceId, 'upload', () => replace(c, sourceId));
  app.put('/v1/sources/:sourceId/graph', guards.write, uploadLimit, (c) =>
    upload(c, c.req.param('sourceId')),
  );

  mountGraphStoreRoutes(app, {
    guards,
    uploadLimit,
    download,
    replace: upload,
    remove: async (c, sourceId) => c.json(await kb.removeGraph(sourceId), 200),
    publicUrl: deps.publicUrl,
  });
}

/** `allowEmpty` is `true` or `false` (absent: false); anything else is a 400. */
function parseAllowEmpty(value: string | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ProblemError({
    status: 400,
    title: 'Invalid request',
    detail: 'allowEmpty must be true or false',
    errors: [{ path: '$.allowEmpty', message: 'must be true or false', code: 'invalid_type' }],
  });
}

const EXPORT_PREFIXES = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  dcterms: 'http://purl.org/dc/terms/',
  owl: 'http://www.w3.org/2002/07/owl#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
};

import { openApiJson, openApiProblem, openApiProblems } from '@dcg/http-kit';
import { mediaTypeOfRdfFormat, RDF_MEDIA_TYPES, WRITABLE_RDF_FORMATS } from '@dcg/knowledge-graph';
import { z } from 'zod';
import { GraphInfoSchema } from './openapi-shared';

/**
 * OpenAPI pieces shared by the two ways to upload and download a source's graph
 * (`/v1/sources/{id}/graph` and the Graph Store Protocol's `/v1/graph/store?graph=`).
 */
export const graphTransferOpenApi = {
  /** The `allowEmpty` query parameter of an upload. */
  allowEmpty: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: a document with no triples empties the graph (default false: refused)'),
  /** An upload's body: one RDF document, in any format read. */
  uploadBody: {
    required: true,
    content: Object.fromEntries(RDF_MEDIA_TYPES.map((type) => [type, { schema: z.string() }])),
  },
  /** What an upload answers. */
  uploadResponses: {
    200: openApiJson('Replaced', GraphInfoSchema),
    400: openApiProblem(
      'syntax error (with line and column), invalid UTF-8 (with the byte offset), or no triples without allowEmpty=true',
    ),
    ...openApiProblems({
      401: 'no or wrong API key',
      403: 'ingestion not enabled for the source, or the key may not write',
      404: 'unknown source',
    }),
    413: openApiProblem(
      'body larger than ingestion.maxUploadBytes, or graph_too_large: the graph needs more memory than ingestion.maxGraphBytes (checked while its triples arrive; nothing is changed)',
    ),
    415: openApiProblem('Content-Type is not an RDF format'),
    422: openApiProblem(
      'document_too_costly: JSON-LD or RDF/XML nested deeper than ingestion.maxJsonLdDepth / ingestion.maxRdfXmlDepth or XML entities that expand too far (with line and column), or a conversion that needs more than ingestion.jsonLdWorkerHeapMb of heap or ingestion.jsonLdTimeoutMs of time',
    ),
  },
  /** A download's body: the graph in a format written, by Accept. */
  downloadContent: Object.fromEntries(
    WRITABLE_RDF_FORMATS.map((f) => [mediaTypeOfRdfFormat(f), { schema: z.string() }]),
  ),
} as const;

import {
  strictUtf8 as decodeStrictUtf8,
  strictUtf8InSteps as decodeStrictUtf8InSteps,
  ProblemError,
} from '@dcg/http-kit';
import { type KnowledgeGraphError, queryRejected } from '@dcg/knowledge-graph';
import { PROBLEM_CODES } from '@dcg/sparql-subset';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { kgProblemType } from './kg-problems';

/** The SPARQL 1.1 Update protocol is refused like an update sent as a query. */
function updateRefused(): KnowledgeGraphError {
  return queryRejected([
    {
      code: PROBLEM_CODES.UPDATE_NOT_SUPPORTED,
      message:
        'SPARQL Update (update=, application/sparql-update) is not supported: the knowledge graph is read-only here',
    },
  ]);
}

/**
 * Refuses text that is not UTF-8 with the offset of the first invalid byte: replacing it with
 * U+FFFD would silently change an IRI or a literal (`@dcg/http-kit`'s `strictUtf8`, with kg-api's
 * problem type).
 *
 * @example
 * const text = strictUtf8(new Uint8Array(await c.req.arrayBuffer()), 'body');
 */
export function strictUtf8(bytes: Uint8Array, what: string): string {
  return decodeStrictUtf8(bytes, what, { type: kgProblemType('invalid_utf8') });
}

/**
 * {@link strictUtf8} in steps, the event loop turning between them: for uploads, which may be
 * hundreds of MB.
 *
 * @example
 * const text = await strictUtf8InSteps(new Uint8Array(await c.req.arrayBuffer()), 'body');
 */
export async function strictUtf8InSteps(bytes: Uint8Array, what: string): Promise<string> {
  return decodeStrictUtf8InSteps(bytes, what, { type: kgProblemType('invalid_utf8') });
}

/**
 * The fields of `application/x-www-form-urlencoded` text (a query string or a form body),
 * percent-decoded to bytes and decoded as strict UTF-8 (URLSearchParams would put U+FFFD in place
 * of invalid bytes). The first value of each name wins.
 */
function formFields(text: string, what: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = percentDecode(equals < 0 ? pair : pair.slice(0, equals), what);
    const value = equals < 0 ? '' : percentDecode(pair.slice(equals + 1), `${what} field ${name}`);
    if (!fields.has(name)) fields.set(name, value);
  }
  return fields;
}

const encoder = new TextEncoder();

function percentDecode(text: string, what: string): string {
  if (!text.includes('%')) return text.replaceAll('+', ' ');
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 37 /* % */ && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c === 43 /* + */) bytes.push(32);
    else if (c < 128) bytes.push(c);
    else {
      const point = text.codePointAt(i) as number;
      for (const b of encoder.encode(String.fromCodePoint(point))) bytes.push(b);
      if (point > 0xffff) i++;
    }
  }
  return strictUtf8(Uint8Array.from(bytes), what);
}

/** What a SPARQL 1.1 protocol request asks, apart from the query text's meaning. */
export interface SparqlRequest {
  /** The query text; `undefined` when the request has none (a GET of the endpoint itself). */
  query: string | undefined;
  /** The `format` parameter (URL or form), if given. */
  format: string | undefined;
  /** The RDF dataset parameters present (`default-graph-uri`, `named-graph-uri`), in that order. */
  datasetParameters: string[];
}

const DATASET_PARAMETERS = ['default-graph-uri', 'named-graph-uri'];

/**
 * Reads a SPARQL 1.1 protocol request: `GET ?query=`, `POST` with `application/sparql-query`
 * (parameters in the URL), or `POST` with a form `query=`. A body of another type is a 415
 * problem; the Update protocol (`update=`, `application/sparql-update`) is refused like an update
 * query; text that is not UTF-8 is refused with the byte offset.
 *
 * @example
 * const { query, format } = await readSparqlRequest(c);
 */
export async function readSparqlRequest(c: Context): Promise<SparqlRequest> {
  const url = c.req.url;
  const at = url.indexOf('?');
  const fields = formFields(at < 0 ? '' : (url.slice(at + 1).split('#')[0] ?? ''), 'query string');
  if (fields.has('update')) throw updateRefused();
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type === 'application/sparql-query') {
      fields.set('query', strictUtf8(new Uint8Array(await c.req.arrayBuffer()), 'body'));
    } else if (type === 'application/x-www-form-urlencoded') {
      const form = formFields(
        strictUtf8(new Uint8Array(await c.req.arrayBuffer()), 'body'),
        'form',
      );
      if (form.has('update')) throw updateRefused();
      // A query belongs in the body of a form POST, not in its URL.
      fields.delete('query');
      for (const [name, value] of form) if (!fields.has(name)) fields.set(name, value);
    } else if (type === 'application/sparql-update') {
      throw updateRefused();
    } else {
      throw new ProblemError({
        status: 415,
        title: 'Unsupported Media Type',
        detail:
          'Send the query as application/sparql-query, as a form field query= (application/x-www-form-urlencoded), or with GET ?query=',
      });
    }
  }
  return {
    query: fields.get('query'),
    format: fields.get('format'),
    datasetParameters: DATASET_PARAMETERS.filter((name) => fields.has(name)),
  };
}

/**
 * The query text of a SPARQL 1.1 protocol request ({@link readSparqlRequest}); a request without
 * one is a 400 problem.
 *
 * @example
 * const text = await readSparqlQuery(c);
 */
export async function readSparqlQuery(c: Context): Promise<string> {
  return requireQuery((await readSparqlRequest(c)).query);
}

/**
 * The query text, or a 400 problem when it is missing or blank.
 *
 * @example
 * const text = requireQuery(request.query);
 */
export function requireQuery(query: string | undefined): string {
  if (query === undefined || query.trim() === '') {
    throw new ProblemError({
      status: 400,
      title: 'Invalid request',
      detail: 'A SPARQL query is required (query parameter or body)',
      errors: [{ path: '$.query', message: 'required', code: 'required' }],
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

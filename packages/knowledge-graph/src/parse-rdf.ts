import { JsonLdParser } from 'jsonld-streaming-parser';
import { DataFactory, Parser, type Quad, Writer } from 'n3';
import type { ConversionLimit, ParseRdfResult, RdfSyntaxIssue } from './parse-rdf-result';
import { locateXmlError, parseRdfXml } from './parse-rdf-xml';
import type { RdfFormat } from './rdf-format';
import { DEFAULT_MAX_XML_DEPTH, preflightXml } from './xml-preflight';

export type { ConversionLimit, ParseRdfResult, RdfSyntaxIssue } from './parse-rdf-result';

/** Where an n3 parser failed, as its error's `context` gives it. */
export interface N3ErrorContext {
  line?: number;
  token?: N3Token;
  previousToken?: N3Token;
}

/**
 * What a converter answers: the document as N-Quads (in pieces of whole lines), or why it is not
 * valid, located by the parser that found it (`position`: a character offset; `line`/`column`: an
 * XML parser's; `n3`: an n3 parser's context), or the limit it ran into.
 */
export type RdfConversion =
  | { success: true; nquads: string[] }
  | {
      success: false;
      message: string;
      position?: number;
      line?: number;
      column?: number;
      n3?: N3ErrorContext;
      exceeded?: ConversionLimit;
    };

/**
 * Converts a document (already checked for depth; for RDF/XML with its DOCTYPE's `entities`
 * expanded) to N-Quads off the calling thread: `rdfInWorker()` of `@dcg/knowledge-graph/node`.
 *
 * @example
 * const convert: RdfConverter = async (text, { format }) => ({ success: true, nquads: [] });
 */
export type RdfConverter = (
  text: string,
  request: {
    format: RdfFormat;
    baseIri?: string | undefined;
    entities?: ReadonlyMap<string, string> | undefined;
  },
) => Promise<RdfConversion>;

/** Options of {@link parseRdf}. */
export interface ParseRdfOptions {
  /** Base IRI for relative IRIs. */
  baseIri?: string;
  /**
   * Receives each quad as it is parsed (moved to the default graph) instead of collecting them:
   * the result's `data` is then empty, and no array of the document's quads is ever built. On a
   * syntax error the quads already passed are to be discarded.
   */
  onQuad?: (quad: Quad) => void;
  /** Called with the number of characters consumed so far (for progress bars). */
  onProgress?: (consumed: number) => void;
  /** Characters fed to an n3 parser at a time in this thread (default 64 KiB; rounded up to a line break). */
  chunkSize?: number;
  /**
   * JSON-LD: deepest nesting of arrays and objects accepted (default {@link DEFAULT_MAX_JSON_DEPTH}),
   * checked in one pass before parsing; deeper documents are refused with the position.
   */
  maxJsonDepth?: number;
  /**
   * RDF/XML: deepest nesting of elements accepted (default {@link DEFAULT_MAX_XML_DEPTH}), checked
   * in one pass before parsing; deeper documents are refused with the position.
   */
  maxXmlDepth?: number;
  /**
   * Converts JSON-LD, RDF/XML, and Turtle-family documents with a line longer than 256 KiB, off
   * this thread (default: none, all is parsed in this thread).
   */
  convert?: RdfConverter;
}

/**
 * Default deepest nesting of JSON-LD arrays and objects. The JSON-LD parser keeps per-depth
 * state and recurses per level: 10,000 levels stalled it and 100,000 ran it out of memory.
 *
 * @example
 * await parseRdf(text, 'json-ld', { maxJsonDepth: DEFAULT_MAX_JSON_DEPTH / 2 });
 */
export const DEFAULT_MAX_JSON_DEPTH = 64;

const n3Formats = {
  turtle: 'Turtle',
  'n-triples': 'N-Triples',
  'n-quads': 'N-Quads',
  trig: 'TriG',
} as const;

type N3Format = keyof typeof n3Formats;

/**
 * Parses an RDF document in full. Every quad is moved to the default graph: a source's knowledge
 * is one graph, whatever graphs the document names. A syntax error yields its line and column,
 * and no quads.
 *
 * @example
 * const parsed = await parseRdf('<urn:a> <urn:b> "c" .', 'n-triples');
 * if (!parsed.success) console.log(parsed.issues[0]); // { message, line, column }
 */
export async function parseRdf(
  text: string,
  format: RdfFormat,
  options: ParseRdfOptions = {},
): Promise<ParseRdfResult> {
  const result = await parseAny(text, format, options);
  const onQuad = options.onQuad;
  // Paths that still collect (RDF/XML in this thread): hand their quads over the same way.
  if (onQuad === undefined || !result.success || result.data.length === 0) return result;
  for (const quad of result.data) onQuad(quad);
  return { success: true, data: [] };
}

async function parseAny(
  text: string,
  format: RdfFormat,
  options: ParseRdfOptions,
): Promise<ParseRdfResult> {
  if (format === 'json-ld') return parseJsonLd(text, options);
  if (format === 'rdf-xml') return parseXml(text, options);
  // n3's lexer never reports the end of a stream that sent no data: an empty document would
  // never settle. It holds no quads.
  if (text.length === 0) return { success: true, data: [] };
  // A chunk ends after a line break: a line longer than this would be one long synchronous
  // stretch (nested blank nodes parse at about 1 MB/s).
  if (options.convert && hasLineLongerThan(text, LONG_LINE)) {
    return parseConverted(text, format, options, options.convert);
  }
  const parsed = await parseN3(textChunks(text, options.chunkSize ?? CHUNK), format, options);
  if (parsed.success) return parsed;
  return { success: false, issues: [locateN3Error(parsed.error, text, parsed.chunkStartLines)] };
}

// Large documents are fed to the parser in chunks, yielding between them, so that a big upload
// neither blocks the event loop nor builds one token array for the whole text. A chunk of
// 64 KiB is a few ms of work even in the slowest Turtle (nested blank nodes).
// Chunks end after a line break, which keeps n3's token positions meaningful (see below).
const CHUNK = 64 * 1024;

/** Lines at least this long send a Turtle-family document to the converter. */
const LONG_LINE = 256 * 1024;

function hasLineLongerThan(text: string, limit: number): boolean {
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if ((end < 0 ? text.length : end) - start > limit) return true;
    if (end < 0) return false;
    start = end + 1;
  }
}

/** A document's chunks, each ending after a line break, and the line each begins on. */
function* textChunks(text: string, size: number): Generator<{ chunk: string; end: number }> {
  const chunkSize = Math.max(1, size);
  for (let offset = 0; offset < text.length; ) {
    const breakAt = text.indexOf('\n', Math.min(offset + chunkSize, text.length) - 1);
    const end = breakAt < 0 ? text.length : breakAt + 1;
    yield { chunk: text.slice(offset, end), end };
    offset = end;
  }
}

/** Converted N-Quads in chunks of at most about 128 KiB (the in-thread JSON-LD converter sends one piece). */
function* pieceChunks(pieces: readonly string[]): Generator<{ chunk: string; end: number }> {
  let offset = 0;
  for (const piece of pieces) {
    for (const { chunk } of textChunks(piece, 128 * 1024)) {
      offset += chunk.length;
      yield { chunk, end: offset };
    }
  }
}

type N3Parsed =
  | { success: true; data: Quad[] }
  | { success: false; error: unknown; chunkStartLines: Set<number> };

async function parseN3(
  chunks: Iterable<{ chunk: string; end: number }>,
  format: N3Format,
  options: Pick<ParseRdfOptions, 'baseIri' | 'onProgress' | 'onQuad'>,
): Promise<N3Parsed> {
  const sink = options.onQuad;
  let refused: { error: unknown } | undefined;
  const quads: Quad[] = [];
  const graph = DataFactory.defaultGraph();
  // Lines on which a chunk begins: n3 measures positions on them from the chunk start.
  const chunkStartLines = new Set<number>([1]);
  const handlers = new Map<string, (value?: unknown) => void>();
  const input = {
    on(event: string, handler: (value?: unknown) => void) {
      handlers.set(event, handler);
      return input;
    },
  };
  const failure = await new Promise<unknown>((resolve) => {
    let settled = false;
    newN3Parser(format, options).parse(input as never, (error, quad) => {
      if (settled) return;
      if (error) {
        settled = true;
        resolve(error);
      } else if (quad) {
        const inDefault =
          quad.graph.termType === 'DefaultGraph'
            ? quad
            : DataFactory.quad(quad.subject, quad.predicate, quad.object, graph);
        if (sink === undefined) quads.push(inDefault);
        else {
          try {
            sink(inDefault);
          } catch (error) {
            // The receiver refused (a graph over its memory limit): not a syntax error.
            refused = { error };
            settled = true;
            resolve(undefined);
          }
        }
      } else {
        settled = true;
        resolve(undefined);
      }
    });
    void (async () => {
      let line = 1;
      let first = true;
      for (const { chunk, end } of chunks) {
        if (settled) break;
        if (!first) await yieldToEventLoop();
        if (settled) break;
        first = false;
        chunkStartLines.add(line);
        line += countLineBreaks(chunk);
        handlers.get('data')?.(chunk);
        options.onProgress?.(end);
      }
      if (!settled) handlers.get('end')?.();
    })();
  });
  if (refused !== undefined) throw refused.error;
  if (failure === undefined) return { success: true, data: quads };
  return { success: false, error: failure, chunkStartLines };
}

/**
 * A document converted off this thread: its N-Quads are parsed here in the pieces they came in,
 * yielding between them; a failure is located in the original text.
 */
async function parseConverted(
  text: string,
  format: RdfFormat,
  options: ParseRdfOptions,
  convert: RdfConverter,
  entities?: ReadonlyMap<string, string>,
): Promise<ParseRdfResult> {
  const converted = await convert(text, { format, baseIri: options.baseIri, entities });
  if (!converted.success) {
    return {
      success: false,
      issues: [locateConversionError(converted, text)],
      ...(converted.exceeded === undefined ? {} : { exceeded: converted.exceeded }),
    };
  }
  // n3 never settles on a stream that sent nothing (see parseRdf).
  if (converted.nquads.every((piece) => piece.length === 0)) {
    options.onProgress?.(text.length);
    return { success: true, data: [] };
  }
  const parsed = await parseN3(
    pieceChunks(converted.nquads),
    'n-quads',
    options.onQuad ? { onQuad: options.onQuad } : {},
  );
  options.onProgress?.(text.length);
  if (parsed.success) return parsed;
  // The converter's own N-Quads: not the client's text.
  const message = parsed.error instanceof Error ? parsed.error.message : String(parsed.error);
  return { success: false, issues: [{ message, line: 1, column: 1 }] };
}

function locateConversionError(
  failure: Extract<RdfConversion, { success: false }>,
  text: string,
): RdfSyntaxIssue {
  if (failure.n3) {
    return locateN3Error({ message: failure.message, context: failure.n3 }, text, new Set([1]));
  }
  if (failure.line !== undefined && failure.column !== undefined) {
    return locateXmlError(failure.message, { line: failure.line, column: failure.column });
  }
  const at =
    failure.position === undefined ? { line: 1, column: 1 } : lineAndColumn(text, failure.position);
  return { message: failure.message, ...at };
}

/** RDF/XML: the preflight (depth, entities), then the parser, off this thread when it can be. */
async function parseXml(text: string, options: ParseRdfOptions): Promise<ParseRdfResult> {
  // Like every format, an empty document holds no quads (the XML parser would want a root).
  if (text.length === 0) return { success: true, data: [] };
  const maxDepth = options.maxXmlDepth ?? DEFAULT_MAX_XML_DEPTH;
  const checked = await preflightXml(text, maxDepth);
  if (!checked.success) {
    return {
      success: false,
      issues: [{ message: checked.message, ...lineAndColumn(text, checked.position) }],
      ...(checked.exceeded ? { exceeded: checked.exceeded } : {}),
    };
  }
  if (options.convert) {
    return parseConverted(text, 'rdf-xml', options, options.convert, checked.entities);
  }
  return parseRdfXml(text, { ...options, entities: checked.entities });
}

// Line breaks as n3 counts them (\r\n, \n or \r).
function countLineBreaks(chunk: string): number {
  let n = 0;
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk.charCodeAt(i);
    if (c === 10) n++;
    else if (c === 13 && chunk.charCodeAt(i + 1) !== 10) n++;
  }
  return n;
}

// The text of a 1-based line, without allocating every line before it.
function lineAt(text: string, line: number): string {
  let start = 0;
  for (let current = 1; current < line; current++) {
    let i = start;
    while (i < text.length && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
    if (i >= text.length) return '';
    start = text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
  }
  let end = start;
  while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
  return text.slice(start, end);
}

function newN3Parser(format: N3Format, options: Pick<ParseRdfOptions, 'baseIri'>): Parser {
  return new Parser({
    format: n3Formats[format],
    ...(options.baseIri ? { baseIRI: options.baseIri } : {}),
  });
}

/** A token as n3's lexer reports it (`start` and `end` within its line). */
export interface N3Token {
  line: number;
  start: number;
  end: number;
}

function locateN3Error(error: unknown, text: string, chunkStartLines: Set<number>): RdfSyntaxIssue {
  const err = error as Error & {
    context?: { line?: number; token?: N3Token; previousToken?: N3Token };
  };
  const message = (err.message ?? String(error)).replace(/ on line \d+\.$/, '');
  const line = err.context?.line ?? 1;
  const lineText = lineAt(text, line);
  // n3 measures a token's start from the line's first character on a line where a chunk
  // begins, and from after the indentation on every other line.
  const shift = (tokenLine: number) =>
    chunkStartLines.has(tokenLine) ? 0 : (/^[ \t]*/.exec(lineAt(text, tokenLine))?.[0].length ?? 0);
  if (err.context?.token) {
    return { message, line, column: err.context.token.start + shift(line) + 1 };
  }
  // Lexer errors carry no column: find the offending text after the previous token.
  const previous = err.context?.previousToken;
  const from = previous && previous.line === line ? previous.end + shift(line) : 0;
  const issue = /^Unexpected "(.*)"$/s.exec(message)?.[1] ?? '';
  const found = issue ? lineText.indexOf(issue, from) : -1;
  const column =
    found >= 0 ? found + 1 : from + 1 + (/^\s*/.exec(lineText.slice(from))?.[0].length ?? 0);
  return { message, line, column };
}

/** Lets pending I/O run (setImmediate runs after the poll phase; a timer chain would not). */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Characters the depth scan reads between two turns of the event loop. */
const SCAN_CHUNK = 4 * 1024 * 1024;

/**
 * One pass over JSON text, outside strings: the offset of the first `[` or `{` nested more than
 * `maxDepth` deep, or -1. Yields to the event loop every few MB.
 */
async function findTooDeep(text: string, maxDepth: number): Promise<number> {
  let depth = 0;
  let inString = false;
  for (let start = 0; start < text.length; start += SCAN_CHUNK) {
    if (start > 0) await yieldToEventLoop();
    const end = Math.min(text.length, start + SCAN_CHUNK);
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 92 /* backslash */) i++;
        else if (c === 34) inString = false;
      } else if (c === 34) inString = true;
      else if (c === 123 || c === 91) {
        if (++depth > maxDepth) return i;
      } else if (c === 125 || c === 93) depth--;
    }
  }
  return -1;
}

async function parseJsonLd(text: string, options: ParseRdfOptions): Promise<ParseRdfResult> {
  const maxDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const tooDeep = await findTooDeep(text, maxDepth);
  if (tooDeep >= 0) {
    return {
      success: false,
      exceeded: 'depth',
      issues: [
        {
          message: `arrays and objects are nested more than ${maxDepth} levels deep`,
          ...lineAndColumn(text, tooDeep),
        },
      ],
    };
  }
  return parseConverted(text, 'json-ld', options, options.convert ?? convertJsonLdInThread);
}

/** The default converter of JSON-LD: jsonld-streaming-parser in this thread. */
async function convertJsonLdInThread(
  text: string,
  options: { baseIri?: string | undefined },
): Promise<RdfConversion> {
  try {
    JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? text.length);
    return { success: false, message, position };
  }
  const parser = new JsonLdParser({
    dataFactory: DataFactory,
    ...(options.baseIri ? { baseIRI: options.baseIri } : {}),
    // No remote contexts: nothing is fetched from URLs found in uploaded documents.
    documentLoader: {
      load: async (url: string) => {
        throw new Error(`remote JSON-LD context ${url} is not loaded; inline the context`);
      },
    },
  });
  const quads: Quad[] = [];
  return new Promise<RdfConversion>((resolve) => {
    parser.on('data', (quad: Quad) => quads.push(quad));
    parser.on('error', (error: Error) => resolve({ success: false, message: error.message }));
    parser.on('end', () =>
      resolve({
        success: true,
        nquads: [new Writer({ format: 'N-Quads' }).quadsToString(quads)],
      }),
    );
    try {
      parser.write(text);
      parser.end();
    } catch (error) {
      // The parser reports through 'error'; this guards against one that throws instead.
      resolve({ success: false, message: error instanceof Error ? error.message : String(error) });
    }
  });
}

function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(position, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

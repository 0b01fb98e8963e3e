import type { Quad } from 'n3';

/** A syntax error in an RDF document, located by 1-based line and column. */
export interface RdfSyntaxIssue {
  message: string;
  line: number;
  column: number;
}

/**
 * A limit a document ran into: its nesting (`depth`, checked before parsing), the text its XML
 * entity references insert (`expansion`), or the heap (`memory`) or time (`time`) of its
 * conversion off the main thread (`rdfInWorker`). Such a document may well be valid: it is
 * refused for what it costs.
 */
export type ConversionLimit = 'depth' | 'expansion' | 'memory' | 'time';

/**
 * Result of {@link parseRdf}: the quads, or the syntax issues; `exceeded` says that the document
 * was refused at a limit rather than for its syntax.
 */
export type ParseRdfResult =
  | { success: true; data: Quad[] }
  | { success: false; issues: RdfSyntaxIssue[]; exceeded?: ConversionLimit };

import * as z from 'zod/mini';
import { type SchemaIssue, schemaIssues } from './schema-issues';

/** An IRI in a SPARQL result. */
export interface IriTerm {
  readonly type: 'uri';
  readonly value: string;
}
/** A blank node (its label is only meaningful inside one result). */
export interface BlankNodeTerm {
  readonly type: 'bnode';
  readonly value: string;
}
/** A literal: plain, language-tagged (`xml:lang`) or typed (`datatype`). */
export interface LiteralTerm {
  readonly type: 'literal';
  readonly value: string;
  readonly 'xml:lang'?: string;
  readonly datatype?: string;
}
/** An RDF-star quoted triple. */
export interface TripleTerm {
  readonly type: 'triple';
  readonly value: {
    readonly subject: RdfTerm;
    readonly predicate: RdfTerm;
    readonly object: RdfTerm;
  };
}
/** Any RDF term of SPARQL JSON results. */
export type RdfTerm = IriTerm | BlankNodeTerm | LiteralTerm | TripleTerm;

/** One solution: variable name → term; an unbound variable is absent. */
export type SparqlBinding<V extends string = string> = { readonly [K in V]?: RdfTerm };

/** Results of a SELECT query. */
export interface SparqlSelectResults<V extends string = string> {
  readonly head: { readonly vars: readonly V[]; readonly link?: readonly string[] };
  readonly results: { readonly bindings: readonly SparqlBinding<V>[] };
}
/** Results of an ASK query. */
export interface SparqlAskResults {
  readonly head: { readonly link?: readonly string[] };
  readonly boolean: boolean;
}
/** W3C SPARQL 1.1 Query Results JSON (spec C2). */
export type SparqlResults<V extends string = string> = SparqlSelectResults<V> | SparqlAskResults;

const iriTerm = z.object({ type: z.literal('uri'), value: z.string() });
const blankNodeTerm = z.object({ type: z.literal('bnode'), value: z.string() });
const literalTerm = z.object({
  type: z.literal('literal'),
  value: z.string(),
  'xml:lang': z.optional(z.string().check(z.minLength(1))),
  datatype: z.optional(z.string().check(z.minLength(1))),
});
// SPARQL 1.0-era servers (Virtuoso among them) still send `typed-literal`; it means `literal`.
const typedLiteralTerm = z.pipe(
  z.object({
    type: z.literal('typed-literal'),
    value: z.string(),
    datatype: z.string().check(z.minLength(1)),
  }),
  z.transform(({ value, datatype }) => ({ type: 'literal' as const, value, datatype })),
);

/**
 * One RDF term of SPARQL JSON results; `typed-literal` is read as `literal`, unknown members are
 * dropped.
 *
 * @example
 * RdfTermSchema.parse({ type: 'literal', value: 'Water', 'xml:lang': 'en' });
 */
export const RdfTermSchema: z.ZodMiniType<RdfTerm> = z.discriminatedUnion('type', [
  iriTerm,
  blankNodeTerm,
  literalTerm,
  typedLiteralTerm,
  z.object({
    type: z.literal('triple'),
    // Quoted triples nest: only this branch needs the lazy self-reference.
    value: z.lazy(() =>
      z.object({ subject: RdfTermSchema, predicate: RdfTermSchema, object: RdfTermSchema }),
    ),
  }),
]) as unknown as z.ZodMiniType<RdfTerm>;

const head = z.object({
  vars: z.optional(z.array(z.string().check(z.minLength(1)))),
  link: z.optional(z.array(z.string())),
});

/**
 * SPARQL JSON results: `head` plus `results.bindings` (SELECT) or `boolean` (ASK). Every binding
 * may only name variables of `head.vars`.
 *
 * @example
 * SparqlResultsSchema.safeParse({ head: { vars: ['s'] }, results: { bindings: [] } }).success; // true
 */
export const SparqlResultsSchema = z
  .object({
    head,
    results: z.optional(z.object({ bindings: z.array(z.record(z.string(), RdfTermSchema)) })),
    boolean: z.optional(z.boolean()),
  })
  .check(
    z.superRefine((value, context) => {
      if ((value.results === undefined) === (value.boolean === undefined)) {
        context.addIssue({
          code: 'custom',
          message: 'must have exactly one of results (SELECT) and boolean (ASK)',
          path: [],
        });
        return;
      }
      if (value.results === undefined) return;
      if (value.head.vars === undefined) {
        context.addIssue({
          code: 'custom',
          message: 'SELECT results need head.vars',
          path: ['head', 'vars'],
        });
        return;
      }
      const vars = new Set(value.head.vars);
      value.results.bindings.forEach((binding, index) => {
        for (const name of Object.keys(binding)) {
          if (!vars.has(name)) {
            context.addIssue({
              code: 'custom',
              message: `variable "${name}" is not in head.vars`,
              path: ['results', 'bindings', index, name],
            });
            return;
          }
        }
      });
    }),
  );

/**
 * Checks an untrusted value as SPARQL JSON results.
 *
 * @example
 * const checked = parseSparqlResults(await response.json());
 * if (checked.success) console.log(checked.data);
 */
export function parseSparqlResults<V extends string = string>(
  value: unknown,
): { success: true; data: SparqlResults<V> } | { success: false; issues: SchemaIssue[] } {
  const parsed = SparqlResultsSchema.safeParse(value);
  if (!parsed.success) return { success: false, issues: schemaIssues(parsed.error.issues) };
  const { head: parsedHead, results, boolean } = parsed.data;
  const link = parsedHead.link ? { link: parsedHead.link } : {};
  if (results !== undefined) {
    return {
      success: true,
      data: {
        head: { vars: (parsedHead.vars ?? []) as V[], ...link },
        results: { bindings: results.bindings as SparqlBinding<V>[] },
      },
    };
  }
  return { success: true, data: { head: link, boolean: boolean === true } };
}

/**
 * True for SELECT results (bindings), false for ASK results (a boolean).
 *
 * @example
 * if (isSelectResults(results)) console.log(results.results.bindings.length);
 */
export function isSelectResults<V extends string>(
  results: SparqlResults<V>,
): results is SparqlSelectResults<V> {
  return 'results' in results;
}

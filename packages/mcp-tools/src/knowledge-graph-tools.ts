import {
  type ConceptDescription,
  isSelectResults,
  type KgEndpoint,
  MAX_SEARCH_LIMIT,
  toPlainRows,
} from '@dcg/kg-client';
import { type McpServer, requireScopes } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { DcgMcpDeps } from './dcg-mcp-deps';
import { decodeCursor, encodeCursor, fitItems } from './paging';
import { SCOPES } from './scopes';
import { withToolErrors } from './tool-errors';
import { tooLarge, toolResult } from './tool-result';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const Lang = z
  .array(z.string().regex(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/))
  .max(10)
  .optional()
  .describe('Preferred languages of labels and definitions, most preferred first, e.g. ["en"]');

const TextSchema = z.object({ value: z.string(), lang: z.string().optional() });
const ConceptSchema = z.object({
  iri: z.string(),
  found: z.boolean(),
  label: TextSchema.optional(),
  altLabels: z.array(TextSchema),
  definitions: z.array(TextSchema),
  broader: z.array(z.string()),
  narrower: z.array(z.string()),
  related: z.array(z.string()),
});

// A SPARQL value as a plain JSON value: IRIs and plain literals as strings, numbers and booleans as
// such, language-tagged literals as { value, lang }, quoted triples as { subject, predicate, object }.
const PlainValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.record(z.string(), z.unknown()),
]);
const SparqlOutputSchema = z.object({
  kind: z.enum(['select', 'ask']),
  variables: z.array(z.string()).optional(),
  rows: z.array(z.record(z.string(), PlainValueSchema)).optional(),
  boolean: z.boolean().optional(),
  rowCount: z.number().int().optional(),
  truncated: z.boolean(),
  source: z.string().optional(),
});

const SparqlQuery = z
  .string()
  .min(1)
  .max(100_000)
  .describe('A SPARQL 1.1 SELECT or ASK query; add LIMIT to bound long answers');

/**
 * Registers the knowledge graph tools: search_knowledge_graph, describe_concepts and sparql_query
 * (scope `kg:read`), and sparql_passthrough (scope `kg:passthrough`: it reaches upstream systems).
 *
 * @example
 * registerKnowledgeGraphTools(server, deps);
 */
export function registerKnowledgeGraphTools(server: McpServer, deps: DcgMcpDeps): void {
  const { kg, limits } = deps;
  const read = requireScopes(SCOPES.knowledgeGraphRead);

  server.registerTool(
    'search_knowledge_graph',
    {
      title: 'Search the knowledge graph',
      description:
        'Finds concepts of the knowledge graph (business glossary, vocabularies) by text, best first, each with its label and definition. Use describe_concepts for broader, narrower and related concepts, and sparql_query for anything else.',
      inputSchema: z.object({
        term: z.string().trim().min(1).max(256).describe('Words to look for'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(Math.min(limits.maxPageSize, MAX_SEARCH_LIMIT))
          .optional()
          .describe(`Results per page (default ${limits.defaultPageSize})`),
        lang: Lang,
        cursor: z.string().max(2000).optional().describe('The nextCursor of a previous answer'),
      }),
      outputSchema: z.object({
        results: z.array(ConceptSchema),
        totalResults: z.number().int(),
        nextCursor: z.string().optional(),
      }),
      annotations: { ...readOnly, openWorldHint: false },
      scopeChallenge: read,
    },
    withToolErrors(async ({ term, limit, lang, cursor }, ctx) => {
      const size = limit ?? limits.defaultPageSize;
      const key = JSON.stringify(['kg-search', term, size, lang ?? null]);
      const offset = decodeCursor(cursor, key);
      const signal = ctx.mcpReq.signal;
      const page = await kg.search(term, { offset, limit: size, signal });
      const described = await kg.describe(page.results, {
        ...(lang ? { lang } : {}),
        signal,
      });
      const concepts = described.map(toConcept);
      const build = (some: readonly z.infer<typeof ConceptSchema>[], next: boolean) => ({
        results: [...some],
        totalResults: page.totalResults,
        ...(next ? { nextCursor: encodeCursor(offset + some.length, key) } : {}),
      });
      const fitted = fitItems(concepts, (some) => build(some, true), limits.maxResultBytes);
      const answer = build(
        concepts.slice(0, fitted.count),
        offset + fitted.count < page.totalResults && fitted.count > 0,
      );
      return toolResult(
        answer,
        `${answer.results.length} of ${page.totalResults} concept(s) match "${term}".`,
      );
    }),
  );

  server.registerTool(
    'describe_concepts',
    {
      title: 'Describe concepts',
      description:
        'Describes concepts of the knowledge graph by IRI: labels, alternative labels, definitions, and the IRIs of broader, narrower and related concepts (SKOS). found is false for an IRI the graph says nothing about.',
      inputSchema: z.object({
        iris: z
          .array(z.string().min(1).max(2000))
          .min(1)
          .max(100)
          .describe('Absolute IRIs of the concepts'),
        lang: Lang,
      }),
      outputSchema: z.object({ concepts: z.array(ConceptSchema) }),
      annotations: { ...readOnly, openWorldHint: false },
      scopeChallenge: read,
    },
    withToolErrors(async ({ iris, lang }, ctx) => {
      const described = await kg.describe(iris, {
        ...(lang ? { lang } : {}),
        signal: ctx.mcpReq.signal,
      });
      const concepts = described.map(toConcept);
      const fitted = fitItems(concepts, (some) => ({ concepts: [...some] }), limits.maxResultBytes);
      if (fitted.count < concepts.length) {
        return tooLarge(
          limits.maxResultBytes,
          `ask for at most ${Math.max(1, fitted.count)} IRIs at a time`,
        );
      }
      return toolResult(
        fitted.answer,
        `${concepts.filter((c) => c.found).length} of ${concepts.length} concept(s) found.`,
      );
    }),
  );

  server.registerTool(
    'sparql_query',
    {
      title: 'Run a SPARQL query on the knowledge graph',
      description:
        "Runs a read-only SPARQL 1.1 SELECT or ASK query on the platform's knowledge graph. Rows come as plain JSON values (IRIs and literals as strings, language-tagged literals as { value, lang }). Answers longer than the server's limit are truncated (truncated: true): add LIMIT and OFFSET to page.",
      inputSchema: z.object({ query: SparqlQuery }),
      outputSchema: SparqlOutputSchema,
      annotations: { ...readOnly, openWorldHint: false },
      scopeChallenge: read,
    },
    withToolErrors(async ({ query }, ctx) => {
      return await runSparql(kg, query, undefined, limits.maxResultBytes, ctx.mcpReq.signal);
    }),
  );

  server.registerTool(
    'sparql_passthrough',
    {
      title: 'Run a SPARQL query on an upstream source',
      description:
        'Runs a read-only SPARQL 1.1 SELECT or ASK query on an upstream knowledge graph source that the platform passes queries through to (a source configured with passthrough in kg-api), named by its source id. The query reaches that other system as it is.',
      inputSchema: z.object({
        source: z
          .string()
          .min(1)
          .max(200)
          .regex(/^[A-Za-z0-9._~-]+$/)
          .describe('Id of a passthrough source configured in kg-api'),
        query: SparqlQuery,
      }),
      outputSchema: SparqlOutputSchema,
      // The query runs on another system, whose content this platform does not control.
      annotations: { ...readOnly, openWorldHint: true },
      scopeChallenge: requireScopes(SCOPES.knowledgeGraphPassthrough),
    },
    withToolErrors(async ({ source, query }, ctx) => {
      return await runSparql(
        kg.source(source),
        query,
        source,
        limits.maxResultBytes,
        ctx.mcpReq.signal,
      );
    }),
  );
}

async function runSparql(
  endpoint: KgEndpoint,
  query: string,
  source: string | undefined,
  maxBytes: number,
  signal: AbortSignal,
) {
  const results = await endpoint.sparql(query, { signal });
  const from = source === undefined ? {} : { source };
  if (!isSelectResults(results)) {
    return toolResult(
      { kind: 'ask' as const, boolean: results.boolean, truncated: false, ...from },
      `ASK: ${results.boolean}`,
    );
  }
  const rows = toPlainRows(results) as Record<string, z.infer<typeof PlainValueSchema>>[];
  const variables = results.head.vars;
  const build = (some: readonly (typeof rows)[number][], truncated: boolean) => ({
    kind: 'select' as const,
    variables: [...variables],
    rows: [...some],
    rowCount: rows.length,
    truncated,
    ...from,
  });
  const fitted = fitItems(rows, (some) => build(some, true), maxBytes);
  const truncated = fitted.count < rows.length;
  return toolResult(
    build(rows.slice(0, fitted.count), truncated),
    `${rows.length} row(s)${truncated ? `, of which the first ${fitted.count} fit in this answer (add LIMIT/OFFSET to page)` : ''}.`,
  );
}

function toConcept(description: ConceptDescription): z.infer<typeof ConceptSchema> {
  return {
    iri: description.iri,
    found: description.found,
    ...(description.label ? { label: { ...description.label } } : {}),
    altLabels: description.altLabels.map((t) => ({ ...t })),
    definitions: description.definitions.map((t) => ({ ...t })),
    broader: [...description.broader],
    narrower: [...description.narrower],
    related: [...description.related],
  };
}

/**
 * The OAuth scopes of the dcg MCP server and what each allows. A tool, resource or prompt names the
 * scopes it needs; a token without them gets `403 insufficient_scope` naming them.
 */
export const SCOPES = {
  /** Search the marketplace, read systems, components, contract compliance and policies. */
  marketplaceRead: 'marketplace:read',
  /** Search the knowledge graph, run SPARQL on the internal graph, describe concepts. */
  knowledgeGraphRead: 'kg:read',
  /** Run SPARQL on an upstream source through kg-api's passthrough (reaches other systems). */
  knowledgeGraphPassthrough: 'kg:passthrough',
} as const;

/** One scope of {@link SCOPES}. */
export type DcgScope = (typeof SCOPES)[keyof typeof SCOPES];

/** Every scope with the sentence a consent page shows for it. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<DcgScope, string>> = {
  'marketplace:read':
    'Read the marketplace: deployed systems, their output ports and data contracts, compliance and policies',
  'kg:read': 'Search and query the knowledge graph (SPARQL on the internal graph)',
  'kg:passthrough': 'Run SPARQL queries on upstream knowledge graph sources through the platform',
};

import { McpServer } from '@modelcontextprotocol/server';
import type { DcgMcpDeps } from './dcg-mcp-deps';
import { registerKnowledgeGraphTools } from './knowledge-graph-tools';
import { challengeListScopes } from './list-scopes';
import { registerMarketplaceTools } from './marketplace-tools';
import { registerPrompts } from './prompts';
import { recordRegistrations } from './recorded-registrations';
import { pageResourceList } from './resource-list';
import { registerResources } from './resources';

const instructions =
  'Tools over a data-contract governance platform: the marketplace of deployed data products (search_marketplace, get_system, get_component, get_contract_compliance, list_policies) and the knowledge graph of business concepts (search_knowledge_graph, describe_concepts, sparql_query, sparql_passthrough). Everything is read-only. Long answers are paged: pass nextCursor back as cursor.';

/**
 * Builds one MCP server with every dcg tool, resource and prompt. Cheap enough to build per
 * request, which is how the 2026-07-28 stateless serving uses it (`createMcpHandler(() => …)`):
 * the definitions (schemas, handlers) are made once per `deps` object and reused.
 *
 * @example
 * const handler = createMcpHandler(() => createDcgMcpServer(deps));
 */
export function createDcgMcpServer(deps: DcgMcpDeps): McpServer {
  const server = new McpServer(
    deps.serverInfo ?? {
      name: 'dcg-mcp-server',
      version: '0.1.0',
      title: 'dcg marketplace and knowledge graph',
    },
    {
      instructions,
      // No list ever changes while a server runs (one server per request, fixed registrations):
      // declaring listChanged would promise notifications that are never sent.
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
      },
      cacheHints: {
        'tools/list': deps.cacheHints.staticLists,
        'prompts/list': deps.cacheHints.staticLists,
        'resources/templates/list': deps.cacheHints.staticLists,
        'server/discover': deps.cacheHints.staticLists,
        'resources/list': deps.cacheHints.marketplaceData,
        'resources/read': deps.cacheHints.marketplaceData,
      },
    },
  );
  let replay = registrations.get(deps);
  if (!replay) {
    replay = recordRegistrations((recorder) => {
      registerMarketplaceTools(recorder, deps);
      registerKnowledgeGraphTools(recorder, deps);
      registerResources(recorder, deps);
      registerPrompts(recorder, deps);
    }, deps.observeToolCall);
    registrations.set(deps, replay);
  }
  replay(server);
  pageResourceList(server, deps);
  challengeListScopes(server);
  return server;
}

/** The tools, resources and prompts of each `deps`, defined once and registered on every server. */
const registrations = new WeakMap<DcgMcpDeps, (server: McpServer) => void>();

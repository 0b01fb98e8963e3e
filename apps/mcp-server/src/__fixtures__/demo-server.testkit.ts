import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { type Backends, DEMO, GOVERNANCE_KEY, startBackends } from './backends.testkit';
import { type InProcessMcpServer, inProcessMcpServer } from './in-process.testkit';

/** mcp-server in demo mode, in process, over the real backends, in a folder of its own. */
export interface DemoMcpServer {
  readonly backends: Backends;
  readonly server: InProcessMcpServer;
  /** The server's data folder (its OAuth keys, its store). */
  readonly dir: string;
  /** Stops the server and the backends and removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts governance-api and kg-api with the demo data, and builds mcp-server in demo mode (a demo
 * user) in front of them, in process (reach it with `server.fetch`).
 *
 * @example
 * const demo = await demoMcpServer('mcp-server-tokens-');
 * const { username, password } = demo.server.demoUser!;
 */
export async function demoMcpServer(
  prefix: string,
  /** Configuration on top of the demo's (e.g. `rateLimit` off where bursts are the point). */
  overrides: Record<string, unknown> = {},
): Promise<DemoMcpServer> {
  const backends = await startBackends();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const removeAll = async () => {
    await backends.close();
    rmSync(dir, { recursive: true, force: true });
  };
  let server: InProcessMcpServer;
  try {
    server = await inProcessMcpServer({
      dataDir: dir,
      demo: true,
      config: {
        governance: { baseUrl: backends.governance.url, apiKey: { key: GOVERNANCE_KEY } },
        knowledgeGraph: { baseUrl: backends.kg.url },
        ...overrides,
      },
      logger: createLogger('test', { level: 'silent' }),
    });
  } catch (error) {
    await removeAll();
    throw error;
  }
  return {
    backends,
    server,
    dir,
    close: async () => {
      await server.close();
      await removeAll();
    },
  };
}

/**
 * Arguments with which each of the nine dcg tools answers from the demo data, by tool name.
 *
 * @example
 * for (const [name, args] of Object.entries(demoToolArguments('orders'))) await client.callTool({ name, arguments: args });
 */
export function demoToolArguments(
  marketplaceQuery: string,
): Record<string, Record<string, unknown>> {
  return {
    search_marketplace: { query: marketplaceQuery },
    get_system: { systemId: DEMO.systemId },
    get_component: { componentId: DEMO.contracts.violated },
    get_contract_compliance: { contractId: DEMO.contracts.violated },
    list_policies: { resourceType: 'dataproduct' },
    search_knowledge_graph: { term: 'data' },
    describe_concepts: { iris: [DEMO.concept] },
    sparql_query: { query: `ASK { <${DEMO.concept}> ?p ?o }` },
    sparql_passthrough: { source: 'upstream', query: `ASK { <${DEMO.concept}> ?p ?o }` },
  };
}

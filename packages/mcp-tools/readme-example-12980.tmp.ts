import { createKgClient } from '@dcg/kg-client';
import { createMarketplaceClient } from '@dcg/marketplace-client';
import { createDcgMcpServer, DEFAULT_CACHE_HINTS, DEFAULT_LIMITS } from '@dcg/mcp-tools';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const deps = {
  marketplace: createMarketplaceClient({
    baseUrl: process.env.GOVERNANCE_URL ?? 'http://127.0.0.1:8080',
    apiKey: process.env.GOVERNANCE_API_KEY, // list_policies needs a key (any role)
  }),
  kg: createKgClient({ baseUrl: process.env.KG_URL ?? 'http://127.0.0.1:8081' }),
  limits: DEFAULT_LIMITS,
  cacheHints: DEFAULT_CACHE_HINTS,
};
serveStdio(() => createDcgMcpServer(deps));

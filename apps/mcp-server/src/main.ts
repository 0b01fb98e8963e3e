import { loadConfig, portFromEnv, runService } from '@dcg/http-kit';
import { McpServerConfigSchema } from './config';
import { startMcpServer } from './server';

// mcp-server as a process: PORT (0 = free port), HOST, DCG_DATA_DIR, DCG_CONFIG, DCG_DEMO=1.
// Without a configuration it reaches governance-api and kg-api where `pnpm start` runs them, with
// the governance-api development key `pnpm start` shares (DCG_GOVERNANCE_DEVELOPMENT_KEY).
await runService({
  name: 'mcp-server',
  start: async ({ logger, announce }) => {
    const dataDir = process.env.DCG_DATA_DIR ?? '.dcg-data/mcp-server';
    const config = loadConfig(McpServerConfigSchema);
    // Beside `pnpm start` without a configuration file: follow the ports the other apps got.
    if (!process.env.DCG_CONFIG) {
      const governancePort = process.env.GOVERNANCE_API_PORT;
      const kgPort = process.env.KG_API_PORT;
      if (governancePort) config.governance.baseUrl = `http://127.0.0.1:${governancePort}`;
      if (kgPort) config.knowledgeGraph.baseUrl = `http://127.0.0.1:${kgPort}`;
      if (process.env.DCG_GOVERNANCE_DEVELOPMENT_KEY && !config.governance.apiKey) {
        config.governance.apiKey = { keyFromEnv: 'DCG_GOVERNANCE_DEVELOPMENT_KEY' };
      }
    }
    const server = await startMcpServer({
      config,
      dataDir,
      databaseUrl: process.env.DATABASE_URL,
      port: portFromEnv(8082),
      host: process.env.HOST ?? '127.0.0.1',
      demo: process.env.DCG_DEMO === '1' || process.env.DCG_DEMO === 'true',
      logger,
    });
    if (server.demoUser) {
      // Printed on purpose, like the other apps' development key: `demoLogin` is not a field name
      // that log redaction hides (a `password` field would be).
      announce.warn('demo user (configure oauth.users for real use)', {
        username: server.demoUser.username,
        demoLogin: server.demoUser.password,
      });
    }
    return { service: server, listening: { mcp: server.mcpUrl, dataDir } };
  },
});

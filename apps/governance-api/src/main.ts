import { loadConfig, portFromEnv, runService } from '@dcg/http-kit';
import { GovernanceApiConfigSchema } from './config';
import { startGovernanceApi } from './server';

// governance-api as a process: PORT (0 = free port), HOST, DCG_DATA_DIR, DCG_CONFIG,
// DATABASE_URL (PostgreSQL instead of SQLite), DCG_DEMO=1 (demo data), DCG_GOVERNANCE_DEVELOPMENT_KEY
// (the development key when no key is configured, instead of a random one; `pnpm start` sets it).
await runService({
  name: 'governance-api',
  start: async ({ logger, announce }) => {
    const dataDir = process.env.DCG_DATA_DIR ?? '.dcg-data/governance-api';
    const api = await startGovernanceApi({
      config: loadConfig(GovernanceApiConfigSchema),
      dataDir,
      databaseUrl: process.env.DATABASE_URL || undefined,
      port: portFromEnv(8080),
      host: process.env.HOST ?? '127.0.0.1',
      demo: process.env.DCG_DEMO === '1' || process.env.DCG_DEMO === 'true',
      developmentKey: process.env.DCG_GOVERNANCE_DEVELOPMENT_KEY || undefined,
      logger,
    });
    if (api.developmentKey) {
      announce.warn('development key (platform-admin; configure auth.apiKeys for real use)', {
        developmentKey: api.developmentKey,
        usage: `Authorization: Bearer ${api.developmentKey}`,
      });
    }
    return {
      service: api,
      listening: {
        dataDir,
        storage: api.governance.store.kind,
        docs: `${api.url}/docs`,
        marketplace: `${api.url}/marketplace`,
      },
    };
  },
});

import { loadConfig, portFromEnv, runService } from '@dcg/http-kit';
import { KgApiConfigSchema } from './config';
import { startKgApi } from './server';

// kg-api as a process: PORT (0 = free port), HOST, DCG_DATA_DIR, DCG_CONFIG, DCG_DEMO=1,
// DATABASE_URL (rate limits shared by instances).
await runService({
  name: 'kg-api',
  start: async ({ logger, announce }) => {
    const dataDir = process.env.DCG_DATA_DIR ?? '.dcg-data/kg-api';
    const demo = process.env.DCG_DEMO === '1' || process.env.DCG_DEMO === 'true';
    const api = await startKgApi({
      config: loadConfig(KgApiConfigSchema),
      dataDir,
      port: portFromEnv(8081),
      host: process.env.HOST ?? '127.0.0.1',
      databaseUrl: process.env.DATABASE_URL,
      demo,
      // On the embedded defaults only: a configuration file names its own passthrough sources.
      demoLoopback: demo && !process.env.DCG_CONFIG,
      logger,
    });
    if (api.developmentKey) {
      announce.warn('development key (writer; configure auth.apiKeys for real use)', {
        developmentKey: api.developmentKey,
        usage: `Authorization: Bearer ${api.developmentKey}`,
      });
    }
    return { service: api, listening: { dataDir, docs: `${api.url}/docs` } };
  },
});

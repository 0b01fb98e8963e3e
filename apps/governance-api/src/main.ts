import { ConfigError, createLogger, loadConfig } from '@dcg/http-kit';
import { GovernanceApiConfigSchema } from './config';
import { startGovernanceApi } from './server';

// governance-api as a process: PORT (0 = free port), HOST, DCG_DATA_DIR, DCG_CONFIG,
// DATABASE_URL (PostgreSQL instead of SQLite), DCG_DEMO=1 (demo data).
const logger = createLogger('governance-api');

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, not "${process.env.PORT}"`);
  }
  const config = loadConfig(GovernanceApiConfigSchema);
  const dataDir = process.env.DCG_DATA_DIR ?? '.dcg-data/governance-api';
  const api = await startGovernanceApi({
    config,
    dataDir,
    databaseUrl: process.env.DATABASE_URL || undefined,
    port,
    host: process.env.HOST ?? '127.0.0.1',
    demo: process.env.DCG_DEMO === '1' || process.env.DCG_DEMO === 'true',
    logger,
  });
  // Always printed, whatever LOG_LEVEL: whoever started the process reads the URL (and the
  // development key) from these lines.
  const announce = createLogger('governance-api', { level: 'info' });
  if (api.developmentKey) {
    announce.warn('development key (platform-admin; configure auth.apiKeys for real use)', {
      developmentKey: api.developmentKey,
      usage: `Authorization: Bearer ${api.developmentKey}`,
    });
  }
  announce.info('listening', {
    url: api.url,
    dataDir,
    storage: api.governance.store.kind,
    docs: `${api.url}/docs`,
    marketplace: `${api.url}/marketplace`,
  });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info('stopping', { signal });
    void api.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (ConfigError.is(error)) {
    logger.error('invalid configuration', { detail: error.message });
    process.stderr.write(`${error.message}\n`);
  } else {
    logger.error('start-up failed', { error });
  }
  process.exit(1);
});

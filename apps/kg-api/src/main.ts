import { ConfigError, createLogger, loadConfig } from '@dcg/http-kit';
import { KgApiConfigSchema } from './config';
import { startKgApi } from './server';

// kg-api as a process: PORT (0 = free port), HOST, DCG_DATA_DIR, DCG_CONFIG, DCG_DEMO=1.
const logger = createLogger('kg-api');

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8081);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, not "${process.env.PORT}"`);
  }
  const config = loadConfig(KgApiConfigSchema);
  const dataDir = process.env.DCG_DATA_DIR ?? '.dcg-data/kg-api';
  const api = await startKgApi({
    config,
    dataDir,
    port,
    host: process.env.HOST ?? '127.0.0.1',
    demo: process.env.DCG_DEMO === '1' || process.env.DCG_DEMO === 'true',
    logger,
  });
  // Always printed, whatever LOG_LEVEL: whoever started the process reads the URL from it.
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), level: 'info', name: 'kg-api', msg: 'listening', url: api.url, dataDir, docs: `${api.url}/docs` })}\n`,
  );
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

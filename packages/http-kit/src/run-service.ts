import { ConfigError } from './config';
import { createLogger, type Logger } from './logger';

/** What a service's start function hands back to `runService`. */
export interface StartedService {
  url: string;
  close(): Promise<void>;
}

/**
 * Reads a TCP port from the environment (`PORT` by default); 0 means a free port.
 *
 * @example
 * const port = portFromEnv(8080);
 */
export function portFromEnv(fallback: number, variable = 'PORT'): number {
  const raw = process.env[variable];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`${variable} must be an integer between 0 and 65535, not "${raw}"`);
  }
  return port;
}

/**
 * Runs an app as a process: starts it, prints the `listening` JSON line (always, whatever
 * `LOG_LEVEL`: whoever started the process reads the URL from it), stops cleanly on SIGINT/SIGTERM,
 * and exits 1 with a readable message when start-up fails (a `ConfigError` names the bad key; an
 * unknown `LOG_LEVEL` is one).
 *
 * @example
 * await runService({
 *   name: 'kg-api',
 *   start: async ({ logger }) => {
 *     const api = await startKgApi({ ... , logger });
 *     return { service: api, listening: { url: api.url, docs: `${api.url}/docs` } };
 *   },
 * });
 */
export async function runService(options: {
  name: string;
  logger?: Logger;
  start: (context: { logger: Logger; announce: Logger }) => Promise<{
    service: StartedService;
    listening?: Record<string, unknown>;
  }>;
}): Promise<void> {
  let logger: Logger;
  try {
    // Validates LOG_LEVEL first: a typo (`verbose`) stops the start-up with one clear line.
    logger = options.logger ?? createLogger(options.name);
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    process.stderr.write(`${options.name}: ${error.message}\n`);
    process.exit(1);
  }
  const announce = createLogger(options.name, { level: 'info' });
  try {
    const { service, listening } = await options.start({ logger, announce });
    announce.info('listening', { url: service.url, ...listening });
    let closing = false;
    const stop = (signal: string) => {
      if (closing) return;
      closing = true;
      logger.info('stopping', { signal });
      void service.close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error('stop failed', { error });
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  } catch (error) {
    if (ConfigError.isInstance(error)) {
      logger.error('invalid configuration', { detail: error.message });
      process.stderr.write(`${error.message}\n`);
    } else {
      logger.error('start-up failed', { error });
    }
    process.exit(1);
  }
}

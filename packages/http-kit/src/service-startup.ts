import type pg from 'pg';
import type { z } from 'zod';
import { CleanupStack } from './cleanup-stack';
import { parseConfig } from './config';
import { ServiceLifecycle } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { ServiceMetrics } from './metrics';
import { isProduction } from './runtime-mode';
import { type HttpServerConfigSchema, type RunningServer, startHttpServer } from './server';
import type { ServiceStartOptions } from './service-start-options';
import { openSharedLimits, type SharedLimits } from './shared-limits';

/**
 * What every service's `start…` function shares: its logger, environment, checked configuration,
 * lifecycle and metrics, and one {@link CleanupStack} that closes what the start-up opened, the
 * last first (on a failed start-up and on close).
 *
 * @example
 * const startup = new ServiceStartup('kg-api', options);
 * const config = startup.config(KgApiConfigSchema);
 * const server = await startup.listen(app, config.server);
 * return { url: server.url, close: () => startup.close() };
 */
export class ServiceStartup {
  readonly logger: Logger;
  /** Where secrets and `NODE_ENV` are read (default `process.env`). */
  readonly env: Record<string, string | undefined>;
  /** Production (NODE_ENV is neither development nor test): demo credentials are refused. */
  readonly production: boolean;
  /** Drained on stop: `/ready` answers 503 while in-flight requests finish. */
  readonly lifecycle = new ServiceLifecycle();
  /** The process metrics and every metric the app registers. */
  readonly metrics: ServiceMetrics;
  readonly cleanup = new CleanupStack();
  readonly #options: ServiceStartOptions<unknown>;

  constructor(
    readonly service: string,
    options: ServiceStartOptions<unknown>,
  ) {
    this.#options = options;
    this.logger = options.logger ?? createLogger(service);
    this.env = options.env ?? process.env;
    this.production = isProduction(this.env);
    this.metrics = options.metrics ?? new ServiceMetrics({ service });
  }

  /** The options' configuration checked against `schema`: a `ConfigError` names each bad key. */
  config<S extends z.ZodType>(schema: S): z.output<S> {
    return parseConfig(schema, this.#options.config ?? {}, `${this.service} configuration`);
  }

  /**
   * On PostgreSQL (a pool), the rate-limit counters shared by every instance on the database;
   * without one, undefined: each instance counts in its own memory.
   */
  async sharedLimits(
    pool: pg.Pool | undefined,
    settings: { schema: string; timeoutMs: number },
  ): Promise<SharedLimits | undefined> {
    if (!pool) return undefined;
    return this.cleanup.orUnwind(openSharedLimits({ pool, ...settings }));
  }

  /**
   * Listens where the options say (default: a free port on 127.0.0.1). Closing stops it
   * gracefully before anything else closes, whenever it started listening: `/ready` answers 503,
   * no new connection, in-flight requests finish (at most `limits.shutdownTimeoutMs`).
   */
  async listen(
    app: Parameters<typeof startHttpServer>[0],
    limits: z.input<typeof HttpServerConfigSchema> | undefined,
  ): Promise<RunningServer> {
    const server = await this.cleanup.orUnwind(
      startHttpServer(app, {
        port: this.#options.port ?? 0,
        host: this.#options.host ?? '127.0.0.1',
        limits,
        lifecycle: this.lifecycle,
      }),
    );
    this.cleanup.deferFirst(() => server.close());
    return server;
  }

  /** Closes everything the start-up opened, the last first. */
  close(): Promise<void> {
    return this.cleanup.run();
  }
}

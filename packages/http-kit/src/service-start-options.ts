import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';

/**
 * What every dcg service's `start…` function takes besides its own options: the configuration
 * (validated by the service), where it keeps its data and where it listens.
 *
 * @example
 * export interface StartKgApiOptions extends ServiceStartOptions<KgApiConfigInput> {}
 */
export interface ServiceStartOptions<ConfigInput> {
  /** The configuration (validated here; see the service's README for every key). */
  config?: ConfigInput;
  /** Data folder of the service (its README says what it keeps there). */
  dataDir: string;
  /** PostgreSQL connection string (`DATABASE_URL`); when set, the service keeps its state there. */
  databaseUrl?: string | undefined;
  /** Port (0 or absent: a free port). */
  port?: number;
  /** Host (default 127.0.0.1). */
  host?: string;
  /** Seeds the service's demo data. */
  demo?: boolean;
  logger?: Logger;
  /** Prometheus metrics (default: a registry of this instance with the process metrics). */
  metrics?: ServiceMetrics;
  /** Environment for `keyFromEnv` keys, other secrets and `NODE_ENV` (default `process.env`). */
  env?: Record<string, string | undefined>;
}

import { AdmissionConfigSchema } from './admission';
import { MetricsConfigSchema } from './metrics';
import { RateLimitConfigSchema } from './rate-limit';
import { HttpServerConfigSchema } from './server';

/**
 * The sections every dcg service's configuration has, each filled with its defaults when the key
 * is absent. Spread into the service's configuration schema.
 *
 * @example
 * const ConfigSchema = z.strictObject({ ...serviceConfigSections, sources: SourcesSchema });
 */
export const serviceConfigSections = {
  /** HTTP server timeouts, connection caps and the shutdown deadline. */
  server: HttpServerConfigSchema.default(() => HttpServerConfigSchema.parse({})),
  /**
   * Admission control: requests worked on at once and waiting for a turn; beyond that 503 with
   * `Retry-After`. The probes and `/metrics` never wait.
   */
  admission: AdmissionConfigSchema.default(() => AdmissionConfigSchema.parse({})),
  /** Per-client rate limits. */
  rateLimit: RateLimitConfigSchema.default(() => RateLimitConfigSchema.parse({})),
  /** `GET /metrics` (Prometheus): on, behind a key by default. */
  metrics: MetricsConfigSchema.default(() => MetricsConfigSchema.parse({})),
};

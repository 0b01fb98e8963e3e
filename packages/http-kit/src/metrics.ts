import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import {
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from 'prom-client';
import { z } from 'zod';
import { type ApiKey, type AuthVariables, bearerAuth } from './bearer-auth';

/**
 * Configuration of `/metrics`, the same key in every app (`metrics:` in its config file).
 *
 * @example
 * MetricsConfigSchema.parse({ requireKey: false });
 */
export const MetricsConfigSchema = z
  .object({
    /** Serve `GET /metrics` at all. */
    enabled: z.boolean().default(true),
    /**
     * Ask for an API key (any role) on `/metrics`. Default on: the numbers carry no secret, but
     * traffic volumes, error rates and queue depths tell an attacker when and where to push.
     * Turn it off only where the port is reachable from the monitoring network alone.
     */
    requireKey: z.boolean().default(true),
  })
  .strict();

/** Validated `metrics:` configuration. */
export type MetricsConfig = z.output<typeof MetricsConfigSchema>;

/** Seconds; from 5 ms (a cached read) to 60 s (the longest query or pull deadline). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** The route label of a request that matched no route: raw paths would let clients mint series. */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The route pattern that answered (`/v1/sources/:sourceId/graph`), never the raw path, so that the
 * number of series stays bounded whatever clients send. A middleware that answered early (401, 429)
 * counts for the route the request was going to.
 */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const routes = matchedRoutes(c);
  const answered = routes[c.req.routeIndex];
  if (answered && answered.method !== 'ALL') return answered.path;
  const handler = routes.find((route) => route.method !== 'ALL');
  return handler ? handler.path : UNMATCHED_ROUTE;
}

/** Events counted and timed by {@link ServiceMetrics.timedEvents}. */
export interface TimedEvents<L extends string> {
  /** The count alone (e.g. to start a series at 0 before the first event). */
  readonly total: Counter<L>;
  /** Adds one event that took `seconds`. */
  record(labels: Partial<Record<L, string>>, seconds: number): void;
}

/**
 * The Prometheus metrics of one app: a registry with the process metrics of `prom-client`
 * (memory, CPU, event loop lag, GC), HTTP metrics per route, method and status, and whatever the app
 * registers (query timings, queue depths, store health) with `histogram` / `gauge` / `counter`.
 * One per app instance: tests that start several apps in one process get separate registries.
 *
 * @example
 * const metrics = new ServiceMetrics({ service: 'kg-api' });
 * app.use(metrics.middleware());
 * app.route('/', metrics.routes({ config: { enabled: true, requireKey: false }, keys: [] }));
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #requests: TimedEvents<'method' | 'route' | 'status'>;
  readonly #inFlight: Gauge<'method' | 'route'>;

  constructor(options: { service: string; prefix?: string; processMetrics?: boolean }) {
    this.registry.setDefaultLabels({ service: options.service });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.#requests = this.timedEvents({
      total: ['http_requests_total', 'HTTP requests answered, by method, route pattern and status'],
      duration: [
        'http_request_duration_seconds',
        'Time from the request to its response headers, by method, route pattern and status',
      ],
      labels: ['method', 'route', 'status'],
    });
    this.#inFlight = this.gauge(
      'http_requests_in_flight',
      'Requests being handled now (waiting for a query slot included), by method and route pattern',
      ['method', 'route'],
    );
  }

  /**
   * A counter in this registry.
   *
   * @example
   * const pulls = metrics.counter('kg_pulls_total', 'Pulls of upstream sources', ['outcome']);
   */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /**
   * A histogram in this registry (seconds, {@link LATENCY_BUCKETS} unless given).
   *
   * @example
   * const timing = metrics.histogram('kg_sparql_query_duration_seconds', 'SPARQL evaluation', ['outcome']);
   */
  histogram<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    buckets: number[] = LATENCY_BUCKETS,
  ): Histogram<L> {
    const config: HistogramConfiguration<L> = {
      name,
      help,
      labelNames,
      buckets,
      registers: [this.registry],
    };
    return new Histogram(config);
  }

  /**
   * Events counted and timed under the same labels, as a counter and a histogram (seconds,
   * {@link LATENCY_BUCKETS} unless given): `record` adds one event and its duration to both.
   *
   * @example
   * const runs = metrics.timedEvents({
   *   total: ['guardian_runs_total', 'Contract checks finished, by outcome'],
   *   duration: ['guardian_run_duration_seconds', 'Time of one contract check, by outcome'],
   *   labels: ['outcome'],
   * });
   * runs.record({ outcome: 'compliant' }, 0.25);
   */
  timedEvents<L extends string>(options: {
    total: [name: string, help: string];
    duration: [name: string, help: string];
    labels: readonly L[];
    buckets?: number[];
  }): TimedEvents<L> {
    const total = this.counter(...options.total, options.labels);
    const duration = this.histogram(...options.duration, options.labels, options.buckets);
    return {
      total,
      record: (labels, seconds) => {
        total.inc(labels);
        duration.observe(labels, seconds);
      },
    };
  }

  /**
   * A gauge in this registry; with `collect`, its value is read at each scrape (a queue depth, a
   * store health check: return a number, or `{ labels, value }` rows).
   *
   * @example
   * metrics.gauge('kg_query_queue_depth', 'Queries waiting for a slot', [], () => admission.load.queued);
   */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    collect?: () =>
      | number
      | Array<{ labels: Partial<Record<L, string>>; value: number }>
      | Promise<number | Array<{ labels: Partial<Record<L, string>>; value: number }>>,
  ): Gauge<L> {
    return new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      ...(collect
        ? {
            async collect(this: Gauge<L>) {
              const value = await collect();
              if (typeof value === 'number') {
                this.set(value);
                return;
              }
              this.reset();
              for (const row of value) this.set(row.labels as never, row.value);
            },
          }
        : {}),
    });
  }

  /**
   * `dcg_build_info{version, commit, node_version}`, always 1: which build runs where (join it on
   * `service` to label other series, or alert when two versions serve at once). Call it once per
   * registry. `commit` defaults to the `DCG_COMMIT` environment variable, else `unknown`.
   *
   * @example
   * metrics.buildInfo({ version: '0.1.0', commit: process.env.DCG_COMMIT });
   */
  buildInfo(info: { version: string; commit?: string | undefined }): void {
    // One build per registry: a second call (a registry shared by two servers in one process) is a no-op.
    if (this.registry.getSingleMetric('dcg_build_info')) return;
    const gauge = this.gauge('dcg_build_info', 'The build that runs: always 1, labelled', [
      'version',
      'commit',
      'node_version',
    ]);
    gauge.set(
      {
        version: info.version,
        commit: info.commit || process.env.DCG_COMMIT || 'unknown',
        node_version: process.version,
      },
      1,
    );
  }

  /**
   * Counts and times every request: mount it first (before auth and rate limits), so that refused
   * requests are counted too.
   *
   * @example
   * app.use(metrics.middleware());
   */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const started = performance.now();
      const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : 'OTHER';
      const pending = routeOf(c);
      this.#inFlight.inc({ method, route: pending });
      try {
        await next();
      } finally {
        this.#inFlight.dec({ method, route: pending });
        const labels = { method, route: routeOf(c), status: String(c.res.status) };
        this.#requests.record(labels, (performance.now() - started) / 1000);
      }
    };
  }

  /**
   * `GET /metrics` in the Prometheus text format; behind any valid API key unless
   * `config.requireKey` is off; absent when `config.enabled` is off. Outside production
   * (`development`, default: `NODE_ENV` is not `production`, the rule that also makes development
   * keys) a scrape from a loopback address with no forwarding header needs no key, so the demo's
   * `/metrics` answers on every app: see {@link isLocalScrape}.
   *
   * @example
   * app.route('/', metrics.routes({ config: config.metrics, keys: apiKeys }));
   */
  routes(options: { config: MetricsConfig; keys: readonly ApiKey[]; development?: boolean }): Hono {
    const app = new Hono();
    if (!options.config.enabled) return app;
    if (options.config.requireKey) {
      const auth = bearerAuth({ keys: options.keys });
      const development = options.development ?? process.env.NODE_ENV !== 'production';
      const guard: MiddlewareHandler<{ Variables: AuthVariables }> = (c, next) =>
        development && isLocalScrape(c) ? next() : auth(c, next);
      app.use('/metrics', guard);
    }
    app.get('/metrics', async (c) => {
      const body = await this.registry.metrics();
      return c.body(body, 200, {
        'content-type': this.registry.contentType,
        'cache-control': 'no-store',
      });
    });
    return app;
  }
}

/**
 * The `version` of a package.json (`unknown` when unreadable), for {@link ServiceMetrics.buildInfo}:
 * an app's `src/` and `dist/` both sit beside its package.json.
 *
 * @example
 * metrics.buildInfo({ version: packageVersion(new URL('../package.json', import.meta.url)) });
 */
export function packageVersion(packageJson: URL): string {
  try {
    const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * A request that came over a socket from this host (127.0.0.0/8, ::1) and carries no forwarding
 * header: a reverse proxy on the same host connects from loopback too, but says whom it forwards
 * for (most proxies add `X-Forwarded-For`; one that adds nothing makes every client look local,
 * which is why the rule holds outside production only). `app.request()` has no socket: not local.
 */
function isLocalScrape(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const address = incoming?.socket?.remoteAddress;
  if (!address || !LOOPBACK.test(address)) return false;
  return FORWARDING_HEADERS.every((name) => c.req.header(name) === undefined);
}

import { parseDuration } from '@dcg/guardian-sdk';
import { LOG_LEVELS, parseConfig } from '@dcg/http-kit';
import { z } from 'zod';

const duration = (name: string) =>
  z.string().transform((text, ctx) => {
    const ms = parseDuration(text);
    if (ms === undefined || ms <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: `${name}: cannot read the duration "${text}" (e.g. 5m, 30s, PT1H)`,
      });
      return z.NEVER;
    }
    return ms;
  });

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n > 0, `${name} must be positive`);

const flag = (name: string) =>
  z
    .enum(['0', '1', 'true', 'false'], `${name} must be 1 or 0`)
    .transform((v) => v === '1' || v === 'true');

/**
 * The guardian's configuration, from environment variables (every one optional; see the README).
 *
 * @example
 * const config = PostgresGuardianConfigSchema.parse(process.env);
 */
export const PostgresGuardianConfigSchema = z.looseObject({
  PORT: z
    .string()
    .regex(/^\d+$/, 'PORT must be a port number')
    .transform(Number)
    .refine((n) => n <= 65_535, 'PORT must be at most 65535')
    .default(8093),
  HOST: z.string().min(1).default('127.0.0.1'),
  GOVERNANCE_URL: z.url('GOVERNANCE_URL must be a URL').default('http://127.0.0.1:8080'),
  DCG_API_KEY: z.string().min(1).optional(),
  DATABASE_URL: z.string().min(1).default('postgres://postgres@127.0.0.1:5432/test'),
  DCG_DATA_DIR: z.string().min(1).default('.dcg-data/postgres-guardian'),
  DCG_ENVIRONMENT: z.string().min(1).default('production'),
  /** Default 5 minutes; 1 minute in demo mode. */
  CHECK_INTERVAL: duration('CHECK_INTERVAL').optional(),
  DCG_API_KEY_FILE: z.string().min(1).optional(),
  DCG_DEMO: z
    .enum(['0', '1', 'true', 'false'], 'DCG_DEMO must be 1 or 0')
    .transform((v) => v === '1' || v === 'true')
    .default(false),
  DCG_DEMO_SCHEMA: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'DCG_DEMO_SCHEMA must be a plain SQL identifier')
    .default('dcg_demo'),
  CHECK_CONCURRENCY: positiveInt('CHECK_CONCURRENCY').default(4),
  STATEMENT_TIMEOUT_MS: positiveInt('STATEMENT_TIMEOUT_MS').default(30_000),
  STOP_DEADLINE_MS: positiveInt('STOP_DEADLINE_MS').default(10_000),
  PG_MAX_CONNECTIONS: positiveInt('PG_MAX_CONNECTIONS').default(4),
  MAX_BODY_BYTES: positiveInt('MAX_BODY_BYTES').default(5 * 1024 * 1024),
  /** A typo such as `verbose` stops the start-up instead of logging at an unexpected level. */
  LOG_LEVEL: z
    .string()
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`))
    .default('info'),
  METRICS_ENABLED: flag('METRICS_ENABLED').default(true),
  /** Off only where the port is reachable from the monitoring network alone. */
  METRICS_REQUIRE_KEY: flag('METRICS_REQUIRE_KEY').default(true),
  /** The bearer key a scraper presents on `/metrics`. */
  METRICS_KEY: z.string().min(16, 'METRICS_KEY must be at least 16 characters').optional(),
});
/** The parsed configuration. */
export type PostgresGuardianConfig = z.infer<typeof PostgresGuardianConfigSchema>;

/**
 * Reads the configuration; every bad variable is named in one `ConfigError` (from
 * `@dcg/http-kit`, as in the other apps), with a `problems` entry per variable.
 *
 * @example
 * const config = readConfig(process.env);
 */
export function readConfig(env: Record<string, string | undefined>): PostgresGuardianConfig {
  const defined = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  // Under `pnpm start`, governance-api's port may be moved with GOVERNANCE_API_PORT.
  if (defined.GOVERNANCE_URL === undefined && defined.GOVERNANCE_API_PORT !== undefined) {
    defined.GOVERNANCE_URL = `http://127.0.0.1:${defined.GOVERNANCE_API_PORT}`;
  }
  // The formatter of the other apps: a ConfigError naming each bad variable (`problems`).
  return parseConfig(PostgresGuardianConfigSchema, defined, 'environment');
}

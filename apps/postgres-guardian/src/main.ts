import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openFileContractRegistry, startGuardian } from '@dcg/guardian-sdk/node';
import { postgresContractCheck } from '@dcg/guardian-sdk/postgres';
import { ConfigError, createLogger, packageVersion, ServiceMetrics } from '@dcg/http-kit';
import pg from 'pg';
import { readConfig } from './config';
import { createDemoTables } from './demo-tables';
import { buildGuardianHttpApp } from './http-app';
import { guardianRunMetrics } from './run-metrics';

// The reference guardian: a tech adapter for the coordinator, and a scheduler that checks the
// contracts it guards in PostgreSQL. Only the public API of @dcg/guardian-sdk is used.

// `--once` (CI) checks what the registry holds and exits: no adapter is served then.
const once = process.argv.includes('--once');

let config: ReturnType<typeof readConfig>;
try {
  config = readConfig(process.env);
} catch (error) {
  if (!ConfigError.isInstance(error)) throw error;
  // As the apps started by runService: one JSON line, the message on stderr, exit code 1. With
  // --once, 1 means "violated": there a configuration that stops the check is 2, could not run.
  createLogger('postgres-guardian', { level: 'info' }).error('invalid configuration', {
    detail: error.message,
    problems: error.problems,
  });
  process.stderr.write(`${error.message}\n`);
  process.exit(once ? 2 : 1);
}

// JSON lines at LOG_LEVEL, secrets redacted (connection strings, keys); `listening` always shows.
const logger = createLogger('postgres-guardian', { level: config.LOG_LEVEL });
const announce = createLogger('postgres-guardian', { level: 'info' });
const log = (level: string, msg: string, fields: Record<string, unknown> = {}) => {
  const method = level === 'debug' || level === 'warn' || level === 'error' ? level : 'info';
  logger[method](msg, fields);
};

const metrics = new ServiceMetrics({ service: 'postgres-guardian' });
metrics.buildInfo({ version: packageVersion(new URL('../package.json', import.meta.url)) });
const recordRun = guardianRunMetrics(metrics);

const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: config.PG_MAX_CONNECTIONS });
pool.on('error', (error) =>
  log('warn', 'idle PostgreSQL connection failed', { error: error.message }),
);
const registry = openFileContractRegistry(join(config.DCG_DATA_DIR, 'contracts.json'), {
  defaultEnvironment: config.DCG_ENVIRONMENT,
});

// Demo (`pnpm start`): fresh demo tables, an orders "pipeline" that keeps orders fresh, and the
// guardian key that governance-api's demo writes into its data folder.
let pipeline: ReturnType<typeof setInterval> | undefined;
if (config.DCG_DEMO && !once) {
  try {
    const touch = await createDemoTables(pool, config.DCG_DEMO_SCHEMA);
    pipeline = setInterval(() => void touch().catch(() => undefined), 10 * 60_000);
    pipeline.unref();
    log('info', 'demo tables ready', { schema: config.DCG_DEMO_SCHEMA });
  } catch (error) {
    log('warn', 'PostgreSQL is not reachable: the demo contracts cannot be checked until it is', {
      database: config.DATABASE_URL.replace(/\/\/[^@]*@/, '//…@'),
      error: (error as Error).message,
    });
  }
}

async function apiKey(): Promise<string | undefined> {
  if (config.DCG_API_KEY) return config.DCG_API_KEY;
  const file =
    config.DCG_API_KEY_FILE ??
    (config.DCG_DEMO
      ? join(dirname(config.DCG_DATA_DIR), 'governance-api', 'demo-guardian.key')
      : undefined);
  if (file === undefined) return undefined;
  // governance-api writes the demo key when it starts; wait for it a little.
  for (let i = 0; i < (config.DCG_DEMO ? 120 : 1); i++) {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  log('warn', 'no API key: submissions will be refused', { file });
  return undefined;
}

try {
  await startGuardian({
    checks: [
      postgresContractCheck({
        pool,
        statementTimeoutMs: config.STATEMENT_TIMEOUT_MS,
        // Demo contracts name their table without a schema.
        ...(config.DCG_DEMO ? { defaultSchema: config.DCG_DEMO_SCHEMA } : {}),
      }),
    ],
    governance: { baseUrl: config.GOVERNANCE_URL, apiKey: await apiKey() },
    registry,
    schedule: { intervalMs: config.CHECK_INTERVAL ?? (config.DCG_DEMO ? 60_000 : 300_000) },
    concurrency: config.CHECK_CONCURRENCY,
    stopDeadlineMs: config.STOP_DEADLINE_MS,
    port: config.PORT,
    hostname: config.HOST,
    adapter: { maxBodyBytes: config.MAX_BODY_BYTES },
    // Ready when PostgreSQL answers: the checks need it.
    ready: () => pool.query('SELECT 1'),
    describe: () => ({
      publicInfo: { checkedIn: { type: 'string', label: 'Checked in', value: 'PostgreSQL' } },
    }),
    fetch: (guardian) =>
      buildGuardianHttpApp({
        guardian,
        metrics,
        metricsConfig: { enabled: config.METRICS_ENABLED, requireKey: config.METRICS_REQUIRE_KEY },
        metricsKeys: config.METRICS_KEY
          ? [{ name: 'metrics', role: 'metrics', key: config.METRICS_KEY }]
          : [],
      }).fetch,
    onListen: (url) =>
      announce.info('listening', {
        url,
        governance: config.GOVERNANCE_URL,
        monitored: registry.list().length,
        demo: config.DCG_DEMO,
      }),
    hooks: {
      onRunStart: (target) => log('debug', 'run started', { contract: target.resourceId }),
      onRunEnd: (report) => {
        recordRun(report);
        log(report.outcome === 'could_not_run' ? 'warn' : 'info', 'run finished', {
          contract: report.resourceId,
          policyId: report.policyId,
          environment: report.environment,
          outcome: report.outcome,
          violations: report.violations,
          notChecked: report.notChecked,
          warnings: report.warnings,
          ms: Math.round(report.durationMs),
          ...(report.reason ? { reason: report.reason } : {}),
        });
      },
      log: (level, message, fields) => log(level, message, fields),
    },
    onStop: async () => {
      log('info', 'stopped');
      if (pipeline) clearInterval(pipeline);
      await pool.end();
    },
  });
} catch (error) {
  log('error', 'cannot listen', { error: (error as Error).message });
  process.exit(2);
}

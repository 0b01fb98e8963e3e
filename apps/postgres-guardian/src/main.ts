import { join } from 'node:path';
import { createGuardianAdapter, GovernanceClient } from '@dcg/guardian-sdk';
import { openFileContractRegistry, runGuardianProcess } from '@dcg/guardian-sdk/node';
import { postgresContractCheck } from '@dcg/guardian-sdk/postgres';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { readConfig } from './config';

// The reference guardian: a tech adapter for the coordinator, and a scheduler that checks the
// contracts it guards in PostgreSQL. Only the public API of @dcg/guardian-sdk is used.

const log = (level: string, msg: string, fields: Record<string, unknown> = {}) =>
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), level, service: 'postgres-guardian', msg, ...fields })}\n`,
  );

let config: ReturnType<typeof readConfig>;
try {
  config = readConfig(process.env);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}

const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: config.PG_MAX_CONNECTIONS });
pool.on('error', (error) =>
  log('warn', 'idle PostgreSQL connection failed', { error: error.message }),
);
const registry = openFileContractRegistry(join(config.DCG_DATA_DIR, 'contracts.json'), {
  defaultEnvironment: config.DCG_ENVIRONMENT,
});

const adapter = createGuardianAdapter({
  maxBodyBytes: config.MAX_BODY_BYTES,
  onProvision: (provisioning) => {
    registry.provisioned(provisioning);
    log('info', 'provisioned', {
      guardian: provisioning.guardian.id,
      policyId: provisioning.policyId,
      contracts: provisioning.contracts.map((c) => c.resourceId),
    });
    return {
      publicInfo: {
        monitoredContracts: {
          type: 'string',
          label: 'Monitored contracts',
          value: String(provisioning.contracts.length),
        },
        checkedIn: { type: 'string', label: 'Checked in', value: 'PostgreSQL' },
      },
    };
  },
  onUnprovision: (provisioning) => {
    registry.unprovisioned(provisioning);
    log('info', 'unprovisioned', { guardian: provisioning.guardian.id });
  },
});

// `--once` (CI) checks what the registry holds and exits: no adapter is served then.
const once = process.argv.includes('--once');
const server = once
  ? undefined
  : serve({ fetch: adapter.fetch, port: config.PORT, hostname: config.HOST }, (info) =>
      log('info', 'listening', {
        url: `http://${config.HOST}:${info.port}`,
        governance: config.GOVERNANCE_URL,
        monitored: registry.list().length,
      }),
    );
server?.on('error', (error) => {
  log('error', 'cannot listen', { error: error.message });
  process.exit(2);
});

await runGuardianProcess({
  contracts: () => registry.list(),
  checks: [postgresContractCheck({ pool, statementTimeoutMs: config.STATEMENT_TIMEOUT_MS })],
  client: new GovernanceClient({ baseUrl: config.GOVERNANCE_URL, apiKey: config.DCG_API_KEY }),
  schedule: { intervalMs: config.CHECK_INTERVAL },
  concurrency: config.CHECK_CONCURRENCY,
  stopDeadlineMs: config.STOP_DEADLINE_MS,
  hooks: {
    onRunStart: (target) => log('debug', 'run started', { contract: target.resourceId }),
    onRunEnd: (report) =>
      log(report.outcome === 'error' ? 'error' : 'info', 'run finished', {
        contract: report.resourceId,
        policyId: report.policyId,
        environment: report.environment,
        outcome: report.outcome,
        violations: report.violations,
        ms: Math.round(report.durationMs),
        ...(report.error ? { error: (report.error as Error).message } : {}),
      }),
    log: (level, message, fields) => log(level, message, fields),
  },
  onStop: async () => {
    log('info', 'stopped');
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
    }
    await pool.end();
  },
});

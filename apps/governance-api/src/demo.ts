import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Governance } from '@dcg/governance';
import type { Logger } from '@dcg/http-kit';
import type { ResolvedApiKey } from './config';
import { DEMO_ADAPTER_PATH } from './demo-tech-adapter';

export const DEMO_ENVIRONMENT = 'production';
export const DEMO_TEMPLATE_ID = 'urn:dmb:itm:dcg-demo-guardian:1';
export const DEMO_PORT_TEMPLATE_ID = 'urn:dmb:itm:dcg-demo-outputport:1';
export const DEMO_SYSTEM_ID = 'urn:dmb:dp:finance:orders:0';
/** Template of the reference guardian (apps/postgres-guardian) in the demo. */
export const DEMO_REFERENCE_TEMPLATE_ID = 'urn:dmb:itm:postgres-guardian:1';
/** File, in the data folder, of the demo guardian key (read by the reference guardian). */
export const DEMO_GUARDIAN_KEY_FILE = 'demo-guardian.key';
export const DEMO_CONTRACTS = {
  compliant: 'urn:dmb:cmp:finance:orders:0:orders-port',
  violated: 'urn:dmb:cmp:finance:orders:0:invoices-port',
  unprocessable: 'urn:dmb:cmp:finance:orders:0:customers-port',
} as const;

const port = (id: string, name: string, table: string, key: string, value: string) => ({
  id,
  name,
  kind: 'outputport',
  consumable: true,
  shoppable: true,
  __dataContractEnabled: true,
  infrastructureTemplateId: DEMO_PORT_TEMPLATE_ID,
  dataContract: {
    schema: [
      { name: key, dataType: 'string', constraint: 'PRIMARY_KEY' },
      { name: value, dataType: 'decimal', constraint: 'NOT_NULL' },
      { name: 'updated_at', dataType: 'timestamp' },
    ],
    SLA: { intervalOfChange: '1 day', timeliness: '2 hours', upTime: '99.9%' },
    // Unqualified: the reference guardian looks in its demo schema (`dcg_demo` by default).
    endpoint: table,
  },
});

const guardianComponent = (id: string, name: string, templateId: string, guards: string[]) => ({
  id,
  name,
  kind: 'workload',
  infrastructureTemplateId: templateId,
  __dataContractGuardianSpec: { guards: guards.map((dataContractId) => ({ dataContractId })) },
});

/**
 * The demo system. With the reference guardian, it guards orders and invoices (checked in
 * PostgreSQL) and the built-in demo guardian guards customers (whose seeded result is malformed);
 * without it, the built-in demo guardian guards all three.
 */
function demoSystem(reference: boolean) {
  const all = Object.values(DEMO_CONTRACTS);
  return {
    id: DEMO_SYSTEM_ID,
    name: 'Orders',
    kind: 'dataproduct',
    domain: 'finance',
    version: '0.1.0',
    description: 'Orders, invoices and customers of the finance domain (demo data)',
    components: [
      port(DEMO_CONTRACTS.compliant, 'Orders', 'orders', 'order_id', 'amount'),
      port(DEMO_CONTRACTS.violated, 'Invoices', 'invoices', 'invoice_id', 'amount'),
      port(DEMO_CONTRACTS.unprocessable, 'Customers', 'customers', 'customer_id', 'lifetime_value'),
      ...(reference
        ? [
            guardianComponent(
              'urn:dmb:cmp:finance:orders:0:postgres-guardian',
              'PostgreSQL contract guardian',
              DEMO_REFERENCE_TEMPLATE_ID,
              [DEMO_CONTRACTS.compliant, DEMO_CONTRACTS.violated],
            ),
            guardianComponent(
              'urn:dmb:cmp:finance:orders:0:guardian',
              'Data contract guardian',
              DEMO_TEMPLATE_ID,
              [DEMO_CONTRACTS.unprocessable],
            ),
          ]
        : [
            guardianComponent(
              'urn:dmb:cmp:finance:orders:0:guardian',
              'Data contract guardian',
              DEMO_TEMPLATE_ID,
              all,
            ),
          ]),
    ],
  };
}

/**
 * The demo's guardian API key (role `guardian`), kept in `<dataDir>/demo-guardian.key` so that the
 * reference guardian started beside this app by `pnpm start` can read it. Only in demo mode.
 *
 * @example
 * const key = demoGuardianKey('.dcg-data/governance-api');
 */
export function demoGuardianKey(dataDir: string): ResolvedApiKey {
  const file = join(dataDir, DEMO_GUARDIAN_KEY_FILE);
  let key: string;
  try {
    key = readFileSync(file, 'utf8').trim();
  } catch {
    key = '';
  }
  if (key.length < 32) {
    key = randomBytes(24).toString('base64url');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
  }
  return { name: 'demo-postgres-guardian', key, role: 'guardian' };
}

/**
 * Where the demo looks for the reference guardian: `DCG_DEMO_GUARDIAN_URL` (`off` disables it), or
 * when started by `pnpm start` (`DCG_DEMO=1` in the environment) `http://127.0.0.1:8093`
 * (`POSTGRES_GUARDIAN_PORT` to change).
 */
function referenceGuardianUrl(env: Record<string, string | undefined>): string | undefined {
  const configured = env.DCG_DEMO_GUARDIAN_URL;
  if (configured === 'off') return undefined;
  if (configured) return configured.replace(/\/+$/, '');
  if (env.DCG_DEMO !== '1' && env.DCG_DEMO !== 'true') return undefined;
  return `http://127.0.0.1:${env.POSTGRES_GUARDIAN_PORT ?? '8093'}`;
}

/** Waits until the tech adapter at `url` answers (any HTTP answer), at most `waitMs`. */
async function adapterAnswers(url: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await fetch(`${url}/v1/provision/probe/status`, { signal: AbortSignal.timeout(1000) });
      return true;
    } catch {
      if (Date.now() + 250 > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

const submission = (id: string, satisfiesPolicy: boolean, details: unknown) => [
  {
    resource: { id, displayName: id.split(':').at(-1), descriptor: '' },
    result: { satisfiesPolicy, errors: [], details },
  },
];

/** A4 details whose one root node, "Data Contract", holds the given groups of checks. */
const dataContractChecks = (groups: unknown[], extra: Record<string, unknown> = {}) => ({
  results: {
    root: [
      {
        key: 'dataContract',
        name: 'Data Contract',
        description: 'Checks of the data contract',
        children: groups,
      },
    ],
  },
  ...extra,
});

/**
 * Seeds the demo: the Orders system deployed through the real coordinator, with one contract in
 * each state (compliant, violated, unprocessable). When the reference guardian
 * (apps/postgres-guardian) answers, it is registered as a guardian template and guards orders and
 * invoices: their states then come from its checks of real PostgreSQL tables. Otherwise (not
 * started, or `DCG_DEMO_GUARDIAN_URL=off`) a built-in demo adapter serves the guardian and static
 * results are seeded. Does nothing when the system is already deployed.
 *
 * @example
 * await seedDemo(governance, 'http://127.0.0.1:8080', logger);
 */
export async function seedDemo(
  governance: Governance,
  baseUrl: string,
  logger: Logger,
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  if (await governance.store.getInstance(DEMO_SYSTEM_ID, DEMO_ENVIRONMENT)) {
    logger.info('demo data already present', { systemId: DEMO_SYSTEM_ID });
    return;
  }
  const adapterUrl = `${baseUrl}${DEMO_ADAPTER_PATH}`;
  await governance.templates.register({
    id: DEMO_PORT_TEMPLATE_ID,
    name: 'Demo output port',
    version: '1.0.0',
    url: adapterUrl,
  });
  const guardian = await governance.templates.register({
    id: DEMO_TEMPLATE_ID,
    name: 'Demo data contract guardian',
    description: 'Monitors the data contracts of data products',
    version: '1.0.0',
    url: adapterUrl,
    properties: {
      dataContractGuardian: {
        policies: [
          {
            resourceType: 'dataproduct',
            spec: {
              name: 'Data product contracts',
              description: 'Data contract monitoring of data products',
            },
          },
        ],
      },
    },
  });
  const policyId = guardian.policies[0]!.policyId;
  const referenceUrl = referenceGuardianUrl(env);
  const waitMs = Number(env.DCG_DEMO_GUARDIAN_WAIT_MS ?? 30_000);
  const reference =
    referenceUrl !== undefined &&
    (await adapterAnswers(referenceUrl, Number.isFinite(waitMs) ? waitMs : 30_000));
  if (referenceUrl !== undefined && !reference) {
    logger.warn('the reference guardian does not answer: the demo uses static results', {
      url: referenceUrl,
    });
  }
  if (reference) {
    await governance.templates.register({
      id: DEMO_REFERENCE_TEMPLATE_ID,
      name: 'PostgreSQL contract guardian',
      description: 'apps/postgres-guardian: checks data contracts in PostgreSQL',
      version: '1.0.0',
      url: referenceUrl,
      properties: {
        dataContractGuardian: {
          policies: [
            {
              resourceType: 'dataproduct',
              spec: {
                name: 'Data product contracts in PostgreSQL',
                description: 'Schema, constraints, quality and freshness of data product tables',
              },
            },
          ],
        },
      },
    });
  }
  const plan = await governance.coordinator.deploy({
    environment: DEMO_ENVIRONMENT,
    descriptor: demoSystem(reference),
  });
  await governance.coordinator.idle();
  const done = await governance.coordinator.getPlan(plan.id);
  if (done.status !== 'completed') {
    logger.error('demo deployment did not complete', {
      planId: plan.id,
      status: done.status,
      errors: done.errors,
    });
    return;
  }
  // With the reference guardian, orders and invoices get real results from its checks.
  if (!reference) {
    await governance.results.submit({
      policyId,
      environment: DEMO_ENVIRONMENT,
      body: submission(
        DEMO_CONTRACTS.compliant,
        true,
        dataContractChecks([
          {
            key: 'schema',
            name: 'Schema',
            children: [
              { key: 'order_id_unique', name: 'order_id is unique', compliant: true },
              { key: 'amount_not_null', name: 'amount is never null', compliant: true },
            ],
          },
          {
            key: 'sla',
            name: 'SLA',
            children: [{ key: 'freshness', name: 'Updated within 2 hours', compliant: true }],
          },
        ]),
      ),
    });
    await governance.results.submit({
      policyId,
      environment: DEMO_ENVIRONMENT,
      body: submission(
        DEMO_CONTRACTS.violated,
        false,
        dataContractChecks(
          [
            {
              key: 'quality',
              name: 'Quality',
              children: [
                {
                  key: 'amount_not_null',
                  name: 'amount is never null',
                  compliant: false,
                  issues: ['12 rows have a null amount'],
                },
                { key: 'invoice_id_unique', name: 'invoice_id is unique', compliant: true },
              ],
            },
            {
              key: 'sla',
              name: 'SLA',
              children: [
                {
                  key: 'freshness',
                  name: 'Updated within 2 hours',
                  compliant: false,
                  issues: ['Last update 5 hours ago'],
                },
              ],
            },
          ],
          { notes: { errorSummary: { message: 'One or more data contract violations detected' } } },
        ),
      ),
    });
  }
  await governance.results.submit({
    policyId,
    environment: DEMO_ENVIRONMENT,
    // Both `compliant` and `children`, and `issues` without `compliant`: details that break A4.
    body: submission(DEMO_CONTRACTS.unprocessable, true, {
      results: {
        root: [
          { key: 'schema', compliant: true, children: [] },
          { key: 'sla', issues: ['late'] },
        ],
      },
    }),
  });
  logger.info('demo data seeded', {
    systemId: DEMO_SYSTEM_ID,
    environment: DEMO_ENVIRONMENT,
    policyId,
    contracts: DEMO_CONTRACTS,
    guardian: reference
      ? `reference guardian at ${referenceUrl} (orders and invoices checked in PostgreSQL)`
      : 'built-in demo adapter (static results)',
  });
}

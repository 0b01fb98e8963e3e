import type { Governance } from '@dcg/governance';
import type { Logger } from '@dcg/http-kit';
import { DEMO_ADAPTER_PATH } from './demo-tech-adapter';

export const DEMO_ENVIRONMENT = 'production';
export const DEMO_TEMPLATE_ID = 'urn:dmb:itm:dcg-demo-guardian:1';
export const DEMO_PORT_TEMPLATE_ID = 'urn:dmb:itm:dcg-demo-outputport:1';
export const DEMO_SYSTEM_ID = 'urn:dmb:dp:finance:orders:0';
export const DEMO_CONTRACTS = {
  compliant: 'urn:dmb:cmp:finance:orders:0:orders-port',
  violated: 'urn:dmb:cmp:finance:orders:0:invoices-port',
  unprocessable: 'urn:dmb:cmp:finance:orders:0:customers-port',
} as const;

const port = (id: string, name: string, columns: string[]) => ({
  id,
  name,
  kind: 'outputport',
  consumable: true,
  shoppable: true,
  __dataContractEnabled: true,
  infrastructureTemplateId: DEMO_PORT_TEMPLATE_ID,
  dataContract: {
    schema: columns.map((c, i) => ({
      name: c,
      dataType: i === 0 ? 'string' : 'decimal',
      ...(i === 0 ? { constraint: 'PRIMARY_KEY' } : {}),
    })),
    SLA: { intervalOfChange: '1 day', timeliness: '2 hours', upTime: '99.9%' },
  },
});

function demoSystem() {
  return {
    id: DEMO_SYSTEM_ID,
    name: 'Orders',
    kind: 'dataproduct',
    domain: 'finance',
    version: '0.1.0',
    description: 'Orders, invoices and customers of the finance domain (demo data)',
    components: [
      port(DEMO_CONTRACTS.compliant, 'Orders', ['order_id', 'amount']),
      port(DEMO_CONTRACTS.violated, 'Invoices', ['invoice_id', 'amount']),
      port(DEMO_CONTRACTS.unprocessable, 'Customers', ['customer_id', 'lifetime_value']),
      {
        id: 'urn:dmb:cmp:finance:orders:0:guardian',
        name: 'Data contract guardian',
        kind: 'workload',
        infrastructureTemplateId: DEMO_TEMPLATE_ID,
        __dataContractGuardianSpec: {
          guards: Object.values(DEMO_CONTRACTS).map((dataContractId) => ({ dataContractId })),
        },
      },
    ],
  };
}

const submission = (id: string, satisfiesPolicy: boolean, details: unknown) => [
  {
    resource: { id, displayName: id.split(':').at(-1), descriptor: '' },
    result: { satisfiesPolicy, errors: [], details },
  },
];

/**
 * Seeds the demo: a guardian template served by the built-in demo adapter, the Orders system
 * deployed through the real coordinator, and one evaluation result in each state (compliant,
 * violated, unprocessable). Does nothing when the system is already deployed.
 *
 * @example
 * await seedDemo(governance, 'http://127.0.0.1:8080', logger);
 */
export async function seedDemo(
  governance: Governance,
  baseUrl: string,
  logger: Logger,
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
  const plan = await governance.coordinator.deploy({
    environment: DEMO_ENVIRONMENT,
    descriptor: demoSystem(),
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
  await governance.results.submit({
    policyId,
    environment: DEMO_ENVIRONMENT,
    body: submission(DEMO_CONTRACTS.compliant, true, {
      results: {
        root: [
          {
            key: 'dataContract',
            name: 'Data Contract',
            description: 'Checks of the data contract',
            children: [
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
            ],
          },
        ],
      },
    }),
  });
  await governance.results.submit({
    policyId,
    environment: DEMO_ENVIRONMENT,
    body: submission(DEMO_CONTRACTS.violated, false, {
      results: {
        root: [
          {
            key: 'dataContract',
            name: 'Data Contract',
            description: 'Checks of the data contract',
            children: [
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
          },
        ],
      },
      notes: { errorSummary: { message: 'One or more data contract violations detected' } },
    }),
  });
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
  });
}

// Benchmark: server-rendered marketplace pages per second over HTTP (read model + rendering),
// beside the same server answering a trivial route (GET /health) and the JSON compliance API, on
// SQLite, with 2 and 32 connections, as ratios measured in one run.
//   tsx --conditions=@dcg/source src/web/__bench__/marketplace-pages.ts   (from apps/governance-api)
//   BENCH_SECONDS (default 5), BENCH_CONTRACTS (data contracts in the deployed system, default 20)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import autocannon from 'autocannon';
import { startGovernanceApi } from '../../server';
import { startGuardianTechAdapter } from '../__fixtures__/guardian-tech-adapter';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 20);
const KEY = 'bench-admin-key-0123456789';
const ENVIRONMENT = 'production';

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

const contractId = (index: number) => `urn:dmb:cmp:bench:pages:0:port-${index}`;

function result(index: number) {
  const checks = Array.from({ length: 12 }, (_, check) => ({
    key: `check_${check}`,
    name: `Check ${check}`,
    compliant: (index + check) % 5 !== 0,
    ...((index + check) % 5 === 0 ? { issues: [`${check * 3} rows fail`] } : {}),
  }));
  return {
    satisfiesPolicy: checks.every((check) => check.compliant),
    details: {
      results: { root: [{ key: 'dataContract', name: 'Data Contract', children: checks }] },
      notes: { errorSummary: { message: 'Some checks fail' } },
    },
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'dcg-bench-pages-'));
const adapter = await startGuardianTechAdapter();
const api = await startGovernanceApi({
  dataDir,
  port: 0,
  logger: createLogger('governance-api', { level: 'silent' }),
  config: {
    auth: { developmentKey: false, apiKeys: [{ name: 'bench', key: KEY, role: 'platform-admin' }] },
    provisioning: { pollIntervalMs: 20 },
    // The limiter runs (its cost is measured) but never refuses: the bench is one client.
    rateLimit: {
      anonymous: { requestsPerSecond: 1e6, burst: 1e6 },
      authenticated: { requestsPerSecond: 1e6, burst: 1e6 },
    },
  },
});
try {
  await post(`${api.url}/v1/infrastructure-templates`, {
    id: 'urn:dmb:itm:bench-port:1',
    name: 'Port',
    url: adapter.url,
  });
  const guardian = await post(`${api.url}/v1/infrastructure-templates`, {
    id: 'urn:dmb:itm:bench-guardian:1',
    name: 'Guardian',
    url: adapter.url,
    properties: {
      dataContractGuardian: {
        policies: [{ resourceType: 'dataproduct', spec: { name: 'Bench', description: 'bench' } }],
      },
    },
  });
  const policyId = (guardian.policies as Array<{ policyId: string }>)[0]!.policyId;
  const ids = Array.from({ length: CONTRACTS }, (_, index) => contractId(index));
  const plan = await post(`${api.url}/v1/provisioning/deploy`, {
    environment: ENVIRONMENT,
    descriptor: {
      id: 'urn:dmb:dp:bench:pages:0',
      name: 'Bench pages',
      kind: 'dataproduct',
      domain: 'bench',
      version: '1.0.0',
      components: [
        ...ids.map((id, index) => ({
          id,
          name: `Port ${index}`,
          kind: 'outputport',
          consumable: true,
          __dataContractEnabled: true,
          infrastructureTemplateId: 'urn:dmb:itm:bench-port:1',
          dataContract: { schema: [{ name: 'id', dataType: 'string' }] },
        })),
        {
          id: 'urn:dmb:cmp:bench:pages:0:guardian',
          name: 'Guardian',
          kind: 'workload',
          infrastructureTemplateId: 'urn:dmb:itm:bench-guardian:1',
          __dataContractGuardianSpec: { guards: ids.map((dataContractId) => ({ dataContractId })) },
        },
      ],
    },
  });
  for (;;) {
    const state = await (
      await fetch(`${api.url}${plan.plan}`, { headers: { authorization: `Bearer ${KEY}` } })
    ).json();
    if (state.status === 'completed') break;
    if (state.status !== 'running') throw new Error(`deploy ${state.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const [index, id] of ids.entries()) {
    await post(
      `${api.url}/v1/computational-governance/policies/${policyId}/evaluation-results?environment=${ENVIRONMENT}`,
      [{ resource: { id, descriptor: '' }, result: result(index) }],
    );
  }

  // A history for the contract whose page is measured: its timeline shows the latest 10 of 60.
  for (let round = 0; round < 60; round++) {
    await post(
      `${api.url}/v1/computational-governance/policies/${policyId}/evaluation-results?environment=${ENVIRONMENT}`,
      [{ resource: { id: ids[0]!, descriptor: '' }, result: result(round) }],
    );
  }

  const targets = {
    'GET /health (trivial)': '/health',
    'GET /marketplace (list page)': `/marketplace?environment=${ENVIRONMENT}`,
    'GET contract page': `/marketplace/data-contracts/${encodeURIComponent(ids[0]!)}?environment=${ENVIRONMENT}`,
    'GET history page (50 of 61)': `/marketplace/data-contracts/${encodeURIComponent(ids[0]!)}/history?environment=${ENVIRONMENT}`,
    'GET system page': `/marketplace/systems/urn%3Admb%3Adp%3Abench%3Apages%3A0?environment=${ENVIRONMENT}`,
    'GET compliance JSON': `/v1/marketplace/data-contracts/${encodeURIComponent(ids[0]!)}/compliance?environment=${ENVIRONMENT}`,
  };
  const rows: Array<Record<string, string | number>> = [];
  for (const connections of [2, 32]) {
    let trivial = 0;
    for (const [label, path] of Object.entries(targets)) {
      const measured = await autocannon({
        url: `${api.url}${path}`,
        connections,
        duration: SECONDS,
        workers: 1,
      });
      const rps = measured.requests.average;
      if (label.includes('trivial')) trivial = rps;
      rows.push({
        connections,
        route: label,
        'req/s': Math.round(rps),
        'p99 ms': measured.latency.p99,
        'vs trivial': trivial > 0 ? `${((rps / trivial) * 100).toFixed(0)}%` : '-',
        non2xx: measured.non2xx,
      });
    }
  }
  console.log(`marketplace pages, SQLite, ${CONTRACTS} data contracts, ${SECONDS}s per route`);
  console.table(rows);
} finally {
  await api.close();
  await adapter.close();
  rmSync(dataDir, { recursive: true, force: true });
}

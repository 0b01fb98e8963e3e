import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGovernance, type GovernanceStore } from '@dcg/governance';
import { openPostgresStore } from '@dcg/governance/postgres';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { createLogger, resolveApiKeys, ServiceMetrics } from '@dcg/http-kit';
import { type PrometheusSample, parsePrometheusText } from '@dcg/http-kit/testkit';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS, testConfig } from './__fixtures__/test-keys';
import { buildGovernanceApp } from './app';
import { GovernanceApiConfigSchema } from './config';
import { openMarketplaceSearch } from './marketplace-search-setup';

const available = await postgresAvailable();
const { schema, drop } = randomSchema();
const dir = mkdtempSync(join(tmpdir(), 'governance-metrics-'));
afterAll(async () => {
  if (available) await drop();
  rmSync(dir, { recursive: true, force: true });
});

const config = GovernanceApiConfigSchema.parse({
  ...testConfig,
  embeddingsSearch: { enabled: false },
});
const logger = createLogger('test', { level: 'silent' });

/** The app as `startGovernanceApi` builds it (marketplace search included), called in process. */
async function appOver(store: GovernanceStore, databaseUrl?: string) {
  const governance = createGovernance(store, { results: config.evaluationResults });
  const search = await openMarketplaceSearch({
    config,
    dataDir: mkdtempSync(join(dir, 'search-')),
    databaseUrl,
    governance,
    logger,
    env: {},
  });
  const app = buildGovernanceApp({
    governance,
    apiKeys: resolveApiKeys(config.auth.apiKeys, { env: {} }).keys,
    logger,
    maxBodyBytes: config.limits.maxBodyBytes,
    metrics: new ServiceMetrics({ service: 'governance-api', processMetrics: false }),
    marketplaceSearch: search.search,
  });
  const close = async () => {
    await search.close();
    await store.close();
  };
  return { app, governance, close };
}

const submission = (contractId: string, satisfiesPolicy: boolean, conform = true) => [
  {
    resource: { id: contractId, descriptor: '' },
    result: {
      satisfiesPolicy,
      details: conform
        ? { results: { root: [{ key: 'k', compliant: satisfiesPolicy }] } }
        : { results: 'not a map of checks' },
    },
  },
];

const value = (samples: PrometheusSample[], name: string, labels: Record<string, string>) =>
  samples.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;

const stores: Array<[string, () => Promise<{ store: GovernanceStore; url?: string }>, boolean]> = [
  ['SQLite', async () => ({ store: await openSqliteStore({ file: ':memory:' }) }), true],
  [
    'PostgreSQL',
    async () => ({
      store: await openPostgresStore({ connectionString: TEST_DATABASE_URL, schema }),
      url: TEST_DATABASE_URL,
    }),
    available,
  ],
];

describe.each(stores)('governance-api /metrics on %s', (_name, open, runs) => {
  it.runIf(runs)(
    'counts results by outcome, contracts per state per environment and policy, the newest result per policy, the embedding queue and the build',
    async () => {
      const { store, url } = await open();
      const { app, governance, close } = await appOver(store, url);
      try {
        for (const id of ['metrics-a', 'metrics-b']) {
          await governance.policies.create({
            id,
            name: id,
            resourceType: 'dataproduct',
            trigger: 'passive',
          });
        }
        const submit = async (policy: string, env: string, body: unknown) => {
          const res = await app.request(
            `/v1/computational-governance/policies/${policy}/evaluation-results?environment=${env}`,
            {
              method: 'POST',
              headers: {
                authorization: `Bearer ${KEYS.guardian}`,
                'content-type': 'application/json',
              },
              body: JSON.stringify(body),
            },
          );
          expect(res.status).toBe(201);
          return (await res.json()) as { status: string; receivedAt: string };
        };
        await submit('metrics-a', 'production', submission('urn:c1', false));
        await submit('metrics-a', 'production', submission('urn:c2', false));
        // c2 is fixed: its current result is compliant, its history keeps the violation.
        await submit('metrics-a', 'production', submission('urn:c2', true));
        const odd = await submit('metrics-a', 'production', submission('urn:c3', true, false));
        expect(odd.status).toBe('unprocessable');
        const last = await submit('metrics-b', 'development', submission('urn:c1', true));
        // A refused submission (unknown policy) is not a result received.
        const refused = await app.request(
          '/v1/computational-governance/policies/nope/evaluation-results?environment=production',
          {
            method: 'POST',
            headers: { authorization: `Bearer ${KEYS.guardian}` },
            body: JSON.stringify(submission('urn:c1', true)),
          },
        );
        expect(refused.status).toBe(404);

        const scrape = await app.request('/metrics', {
          headers: { authorization: `Bearer ${KEYS.reader}` },
        });
        expect(scrape.status).toBe(200);
        const { samples, types } = parsePrometheusText(await scrape.text());
        const results = (outcome: string) =>
          value(samples, 'governance_evaluation_results_total', { outcome });
        expect(types.get('governance_evaluation_results_total')).toBe('counter');
        expect([results('compliant'), results('violated'), results('unprocessable')]).toEqual([
          2, 2, 1,
        ]);
        const contracts = (environment: string, policy: string, state: string) =>
          value(samples, 'governance_contracts', { environment, policy, state });
        expect(contracts('production', 'metrics-a', 'violated')).toBe(1);
        expect(contracts('production', 'metrics-a', 'compliant')).toBe(1);
        expect(contracts('production', 'metrics-a', 'unprocessable')).toBe(1);
        expect(contracts('development', 'metrics-b', 'compliant')).toBe(1);
        expect(
          samples.filter((s) => s.name === 'governance_contracts').map((s) => s.value),
        ).toEqual([1, 1, 1, 1]);
        expect(
          value(samples, 'governance_last_result_timestamp_seconds', {
            environment: 'development',
            policy: 'metrics-b',
          }),
        ).toBe(Date.parse(last.receivedAt) / 1000);
        expect(
          samples.filter((s) => s.name === 'governance_last_result_timestamp_seconds'),
        ).toHaveLength(2);
        expect(value(samples, 'governance_embeddings_pending', {})).toBe(0);
        expect(value(samples, 'governance_embedding_jobs_running', {})).toBe(0);
        expect(value(samples, 'governance_embeddings_embedded', {})).toBe(0);
        expect(value(samples, 'dcg_store_up', {})).toBe(1);
        expect(samples).toContainEqual({
          name: 'dcg_build_info',
          labels: {
            service: 'governance-api',
            version: '0.1.0',
            commit: process.env.DCG_COMMIT || 'unknown',
            node_version: process.version,
          },
          value: 1,
        });
      } finally {
        await close();
      }
    },
  );
});

describe('governance-api /metrics when the store cannot be read', () => {
  it('still answers the scrape: the store is down, the state series are left out (not zeros)', async () => {
    const { app, close } = await appOver(await openSqliteStore({ file: ':memory:' }));
    await close();
    const scrape = await app.request('/metrics', {
      headers: { authorization: `Bearer ${KEYS.reader}` },
    });
    expect(scrape.status).toBe(200);
    const { samples } = parsePrometheusText(await scrape.text());
    expect(value(samples, 'dcg_store_up', {})).toBe(0);
    expect(samples.some((s) => s.name === 'governance_contracts')).toBe(false);
    expect(samples.some((s) => s.name === 'governance_last_result_timestamp_seconds')).toBe(false);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGovernance } from '@dcg/governance';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { createLogger, resolveApiKeys, ServiceMetrics } from '@dcg/http-kit';
import { buildGovernanceApp } from '../app';
import { GovernanceApiConfigSchema } from '../config';
import { openMarketplaceSearch } from '../marketplace-search-setup';
import { KEYS, testConfig } from './test-keys';

/**
 * A real `/metrics` scrape of governance-api (process metrics and marketplace search included)
 * after a result of each outcome, so that every family has samples where it can.
 *
 * @example
 * const text = await governanceApiScrape();
 */
export async function governanceApiScrape(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'governance-scrape-'));
  const config = GovernanceApiConfigSchema.parse({
    ...testConfig,
    embeddingsSearch: { enabled: false },
  });
  const logger = createLogger('test', { level: 'silent' });
  const store = await openSqliteStore({ file: ':memory:' });
  const governance = createGovernance(store, { results: config.evaluationResults });
  const search = await openMarketplaceSearch({
    config,
    dataDir: dir,
    databaseUrl: undefined,
    governance,
    logger,
    env: {},
  });
  try {
    const app = buildGovernanceApp({
      governance,
      apiKeys: resolveApiKeys(config.auth.apiKeys, { env: {} }).keys,
      logger,
      maxBodyBytes: config.limits.maxBodyBytes,
      metrics: new ServiceMetrics({ service: 'governance-api' }),
      marketplaceSearch: search.search,
    });
    await governance.policies.create({
      id: 'scrape',
      name: 'Scrape',
      resourceType: 'dataproduct',
      trigger: 'passive',
    });
    for (const [contract, satisfiesPolicy, details] of [
      ['urn:ok', true, { results: {} }],
      ['urn:bad', false, { results: {} }],
      ['urn:odd', true, { results: 'not a map' }],
    ] as const) {
      await app.request(
        '/v1/computational-governance/policies/scrape/evaluation-results?environment=production',
        {
          method: 'POST',
          headers: { authorization: `Bearer ${KEYS.guardian}`, 'content-type': 'application/json' },
          body: JSON.stringify([
            { resource: { id: contract, descriptor: '' }, result: { satisfiesPolicy, details } },
          ]),
        },
      );
    }
    const response = await app.request('/metrics', {
      headers: { authorization: `Bearer ${KEYS.reader}` },
    });
    if (response.status !== 200)
      throw new Error(`governance-api /metrics answered ${response.status}`);
    return await response.text();
  } finally {
    await search.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

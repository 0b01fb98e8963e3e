import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, createLogger } from '@dcg/http-kit';
import { parsePrometheusText } from '@dcg/http-kit/testkit';
import { type FakeEmbeddingsApi, startFakeEmbeddingsApi } from '@dcg/marketplace-search/testing';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';
import { DEMO_ADAPTER_PATH } from './demo-tech-adapter';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

const TOKEN = 'embedder-token-0123456789abcdefghij';
let fake: FakeEmbeddingsApi;
const dirs: string[] = [];
const logLines: string[] = [];

beforeAll(async () => {
  fake = await startFakeEmbeddingsApi({
    apiKey: TOKEN,
    deployments: { small: 'text-embedding-3-small', large: 'text-embedding-3-large' },
  });
});
afterAll(async () => {
  await fake.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const embeddingsSearch = (deployment: 'small' | 'large', enabled = true) => ({
  enabled,
  embeddingsModel: {
    provider: 'azure_openai',
    apiVersion: '2024-10-21',
    instanceName: 'test-instance',
    deploymentName: deployment,
    endpoint: fake.url,
    model: deployment === 'small' ? 'text-embedding-3-small' : 'text-embedding-3-large',
    dimensions: 128,
    maxRetries: 0,
  },
  retryDelayMs: 200,
  refreshIntervalMs: 200,
});

async function start(options: {
  deployment?: 'small' | 'large';
  enabled?: boolean;
  dataDir?: string;
  databaseUrl?: string;
  schema?: string;
  env?: Record<string, string | undefined>;
}): Promise<RunningGovernanceApi> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gov-search-'));
  if (!options.dataDir) dirs.push(dataDir);
  return startGovernanceApi({
    config: {
      ...testConfig,
      embeddingsSearch: embeddingsSearch(options.deployment ?? 'small', options.enabled ?? true),
      ...(options.schema ? { storage: { postgres: { schema: options.schema } } } : {}),
    } as never,
    dataDir,
    demo: true,
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    env: options.env ?? { EMBEDDERENGINE_SERVICE_TOKEN: TOKEN },
    logger: createLogger('test', { level: 'info', write: (line) => logLines.push(line) }),
  });
}

async function registerTemplate(url: string): Promise<void> {
  const res = await request(`${url}/v1/infrastructure-templates`, {
    key: KEYS.admin,
    body: { id: 'urn:dmb:itm:port:1', name: 'Port', url: `${url}${DEMO_ADAPTER_PATH}` },
  });
  expect([200, 201]).toContain(res.status);
}

async function deploy(
  api: RunningGovernanceApi,
  environment: string,
  name: string,
  description: string,
  column: string,
) {
  const slug = name.toLowerCase().replace(/\W+/g, '-');
  const descriptor = [
    `id: urn:dmb:dp:sales:${slug}:0`,
    `name: ${name}`,
    'kind: dataproduct',
    'domain: sales',
    `description: ${description}`,
    'components:',
    `  - id: urn:dmb:cmp:sales:${slug}:0:port`,
    `    name: ${name} port`,
    '    kind: outputport',
    '    __dataContractEnabled: true',
    '    infrastructureTemplateId: urn:dmb:itm:port:1',
    '    dataContract:',
    '      schema:',
    `        - { name: ${column}, dataType: STRING, description: ${description} }`,
  ].join('\n');
  const res = await request(`${api.url}/v1/provisioning/deploy`, {
    key: KEYS.coordinator,
    body: { environment, descriptor },
  });
  expect(res.status).toBe(202);
  await api.governance.coordinator.idle();
  return `urn:dmb:dp:sales:${slug}:0`;
}

const search = async (url: string, query: Record<string, string>) => {
  const res = await request(`${url}/v1/marketplace/search?${new URLSearchParams(query)}`);
  return { status: res.status, body: await res.json() };
};

async function waitForJob(url: string, id: string) {
  for (let i = 0; i < 200; i++) {
    const job = await (
      await request(`${url}/marketplace/embeddingsSearch/jobs/${id}`, { key: KEYS.reader })
    ).json();
    if (job.status !== 'running') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the job did not finish');
}

describe('marketplace search over HTTP (SQLite, Azure OpenAI provider on loopback)', () => {
  let api: RunningGovernanceApi;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gov-search-main-'));
    dirs.push(dataDir);
    api = await start({ dataDir });
    await registerTemplate(api.url);
  });
  afterAll(() => api?.close());

  it('finds a deployed system by meaning and by name, says why, and forgets it after undeploy', async () => {
    const id = await deploy(
      api,
      'qa',
      'Leads',
      'Prospects collected from trade fairs',
      'prospect_email',
    );
    await deploy(api, 'qa', 'Quotes', 'Price offers sent to buyers', 'offer_total');
    await api.marketplaceSearch.idle();
    const byWords = await search(api.url, { q: 'trade fairs prospects', environment: 'qa' });
    expect(byWords.status).toBe(200);
    expect(byWords.body).toMatchObject({
      mode: 'hybrid',
      model: 'azure_openai:text-embedding-3-small:128',
      pending: 0,
    });
    expect(byWords.body.hits[0]).toMatchObject({
      systemId: id,
      name: 'Leads',
      kind: 'dataproduct',
      domain: 'sales',
    });
    expect(byWords.body.hits[0].matchedBy).toEqual(expect.arrayContaining(['words', 'meaning']));
    const byUrn = await search(api.url, { q: id, environment: 'qa' });
    expect(byUrn.body.hits[0]).toMatchObject({
      systemId: id,
      matchedBy: expect.arrayContaining(['exact-urn']),
    });
    expect(byUrn.body.hits[0].compliance).toBe('unknown');
    expect(
      (await search(api.url, { q: 'leads', environment: 'qa', compliance: 'violated' })).body.hits,
    ).toEqual([]);
    expect((await search(api.url, { q: 'leads', environment: 'prod' })).body.hits).toEqual([]);

    // Without an environment: one ranking over every environment, paged, each hit with its
    // data contracts, so that a client needs no other read.
    const elsewhere = await deploy(
      api,
      'prod',
      'Exhibitions',
      'Visitors met at trade fairs',
      'visitor_email',
    );
    await api.marketplaceSearch.idle();
    const everywhere = await search(api.url, { q: 'trade fairs', limit: '1' });
    expect(everywhere.status).toBe(200);
    expect(everywhere.body).toMatchObject({ mode: 'hybrid', offset: 0, nextOffset: 1 });
    const next = await search(api.url, { q: 'trade fairs', limit: '1', offset: '1' });
    expect(next.body.offset).toBe(1);
    const found = [...everywhere.body.hits, ...next.body.hits];
    expect(
      found.map((h: { systemId: string; environment: string }) => h.environment).sort(),
    ).toEqual(['prod', 'qa']);
    expect(found.map((h: { systemId: string }) => h.systemId).sort()).toEqual(
      [elsewhere, id].sort(),
    );
    expect(found.find((h: { systemId: string }) => h.systemId === id)).toMatchObject({
      compliance: 'unknown',
      dataContracts: [
        { id: 'urn:dmb:cmp:sales:leads:0:port', name: 'Leads port', status: 'unknown' },
      ],
    });

    const undeploy = await request(`${api.url}/v1/provisioning/undeploy`, {
      key: KEYS.coordinator,
      body: { environment: 'qa', systemId: id },
    });
    expect(undeploy.status).toBe(202);
    await api.governance.coordinator.idle();
    await api.marketplaceSearch.idle();
    const after = await search(api.url, { q: 'trade fairs prospects', environment: 'qa' });
    expect(after.body.hits.map((h: { systemId: string }) => h.systemId)).not.toContain(id);
  });

  it('documents the search and embeddings routes in the OpenAPI document', async () => {
    const doc = await (await request(`${api.url}/openapi.json`)).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/marketplace/search',
        '/marketplace/embeddingsSearch/createEmbeddings',
        '/marketplace/embeddingsSearch/jobs/{id}',
        '/marketplace/embeddingsSearch/status',
      ]),
    );
    const params = doc.paths['/v1/marketplace/search'].get.parameters.map(
      (p: { name: string }) => p.name,
    );
    expect(params).toEqual(
      expect.arrayContaining(['q', 'environment', 'limit', 'offset', 'kind', 'compliance']),
    );
    const environment = doc.paths['/v1/marketplace/search'].get.parameters.find(
      (p: { name: string }) => p.name === 'environment',
    );
    expect(environment.required).not.toBe(true);
    // The reference links the plain-words note on ranking, which the page serves.
    expect(doc.paths['/v1/marketplace/search'].get.description).toContain(
      '/marketplace/how-search-ranks',
    );
    expect((await request(`${api.url}/marketplace/how-search-ranks`)).status).toBe(200);
    expect(
      doc.components.schemas.MarketplaceSearchResult.properties.hits.items.properties.dataContracts,
    ).toBeDefined();
    expect(doc.components.schemas.MarketplaceSearchResult).toBeDefined();
  });

  it('answers bad searches with 400 problems naming the parameter', async () => {
    for (const query of [
      { q: '', environment: 'qa' },
      { q: 'x', environment: 'qa', limit: '500' },
      { q: 'x'.repeat(600), environment: 'qa' },
      { q: 'x', environment: '' },
      { q: 'x', offset: '-1' },
      { q: 'x', offset: '951' },
      { q: 'x', environment: 'qa', compliance: 'green' },
    ]) {
      const res = await request(`${api.url}/v1/marketplace/search?${new URLSearchParams(query)}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect((await res.json()).errors.length).toBeGreaterThan(0);
    }
  });

  it('createEmbeddings needs a platform-admin key, answers 202 with the job, and one job per environment', async () => {
    const url = `${api.url}/marketplace/embeddingsSearch/createEmbeddings`;
    expect((await request(url, { body: { environment: 'qa' } })).status).toBe(401);
    expect((await request(url, { key: KEYS.reader, body: { environment: 'qa' } })).status).toBe(
      403,
    );
    expect((await request(url, { key: KEYS.admin, body: { environment: '' } })).status).toBe(400);
    expect((await request(url, { key: KEYS.admin, body: { env: 'qa' } })).status).toBe(400);
    expect((await request(url, { key: KEYS.admin, rawBody: '{' })).status).toBe(400);
    fake.fail({ status: 200, delayMs: 500, passThrough: true });
    const first = await request(url, { key: KEYS.admin, body: { environment: 'qa' } });
    expect(first.status).toBe(202);
    const job = await first.json();
    expect(job).toMatchObject({
      environment: 'qa',
      status: 'running',
      model: 'azure_openai:text-embedding-3-small:128',
    });
    expect(first.headers.get('location')).toBe(`/marketplace/embeddingsSearch/jobs/${job.id}`);
    const second = await (
      await request(url, { key: KEYS.admin, body: { environment: 'qa' } })
    ).json();
    // (the first batch is held by the provider, so the job is still running)
    expect(second.id).toBe(job.id);
    const done = await waitForJob(api.url, job.id);
    expect(done).toMatchObject({
      status: 'completed',
      total: job.total,
      done: job.total,
      failed: 0,
    });
    // The job is counted by status, with its duration, in the app's metrics.
    const scrape = await request(`${api.url}/metrics`, { key: KEYS.reader });
    expect(scrape.status).toBe(200);
    const { samples } = parsePrometheusText(await scrape.text());
    const sample = (name: string, status: string) =>
      samples.find((s) => s.name === name && s.labels.status === status)?.value;
    expect(sample('governance_embedding_jobs_total', 'completed')).toBeGreaterThanOrEqual(1);
    expect(sample('governance_embedding_jobs_total', 'failed')).toBe(0);
    expect(sample('governance_embedding_job_duration_seconds_count', 'completed')).toBe(
      sample('governance_embedding_jobs_total', 'completed'),
    );
    expect(
      (await request(`${api.url}/marketplace/embeddingsSearch/jobs/nope`, { key: KEYS.reader }))
        .status,
    ).toBe(404);
    const status = await (
      await request(`${api.url}/marketplace/embeddingsSearch/status?environment=qa`)
    ).json();
    expect(status).toMatchObject({ enabled: true, pending: 0, lastError: null });
    expect(status.embedded).toBe(status.instances);
  });

  it('a provider outage never blocks a deploy: the status counts it pending, search finds it by words', async () => {
    for (let i = 0; i < 6; i++) fake.fail({ status: 503 });
    const id = await deploy(api, 'qa', 'Churn Risk', 'Customers likely to cancel', 'risk_score');
    const plan = (await api.governance.store.listPlans({ environment: 'qa', limit: 1, offset: 0 }))
      .data[0];
    expect(plan?.status).toBe('completed');
    const found = await search(api.url, { q: 'churn risk', environment: 'qa' });
    expect(found.body.hits[0].systemId).toBe(id);
    await expect
      .poll(
        async () =>
          (
            await (
              await request(`${api.url}/marketplace/embeddingsSearch/status?environment=qa`)
            ).json()
          ).pending,
        { timeout: 10_000 },
      )
      .toBe(0);
  });

  it('never writes the provider key to the logs', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(TOKEN);
  });

  it('after a model change: stale until rebuilt, never mixed, createEmbeddings rebuilds', async () => {
    await api.close();
    api = await start({ dataDir, deployment: 'large' });
    const status = await (await request(`${api.url}/marketplace/embeddingsSearch/status`)).json();
    expect(status.model).toBe('azure_openai:text-embedding-3-large:128');
    expect(status.otherModels['azure_openai:text-embedding-3-small:128']).toBeGreaterThan(0);
    const res = await request(`${api.url}/marketplace/embeddingsSearch/createEmbeddings`, {
      key: KEYS.admin,
      body: { environment: 'qa' },
    });
    const done = await waitForJob(api.url, (await res.json()).id);
    expect(done.status).toBe('completed');
    await api.marketplaceSearch.idle();
    const result = await search(api.url, { q: 'quotes', environment: 'qa' });
    expect(result.body).toMatchObject({
      mode: 'hybrid',
      model: 'azure_openai:text-embedding-3-large:128',
      pending: 0,
    });
  });
});

describe('marketplace search configuration at start-up', () => {
  it('stops start-up naming a missing or empty key variable, never a key', async () => {
    const missing = await start({ env: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ConfigError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toContain('EMBEDDERENGINE_SERVICE_TOKEN is not set');
    const empty = await start({ env: { EMBEDDERENGINE_SERVICE_TOKEN: '' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((empty as Error).message).toContain('EMBEDDERENGINE_SERVICE_TOKEN is empty');
  });

  it('refuses an invalid embeddingsSearch at start-up', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gov-search-bad-'));
    dirs.push(dataDir);
    const bad = await startGovernanceApi({
      config: {
        embeddingsSearch: {
          embeddingsModel: {
            provider: 'azure_openai',
            apiVersion: '2024/10/21',
            endpoint: 'http://example.com',
          },
        },
      } as never,
      dataDir,
      logger: createLogger('test', { level: 'silent' }),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((bad as Error).message).toMatch(/embeddingsSearch\.embeddingsModel\.apiVersion/);
    expect((bad as Error).message).toMatch(/embeddingsSearch\.embeddingsModel\.endpoint/);
    expect((bad as Error).message).toMatch(/embeddingsSearch\.embeddingsModel\.deploymentName/);
  });

  it('disabled: search answers lexically and says so; createEmbeddings is a 409', async () => {
    const api = await start({ enabled: false, env: {} });
    try {
      await registerTemplate(api.url);
      const id = await deploy(api, 'qa', 'Invoices', 'Bills sent to clients', 'invoice_id');
      const result = await search(api.url, { q: 'invoices', environment: 'qa' });
      expect(result.body).toMatchObject({
        mode: 'lexical',
        fallback: 'embeddings search is disabled',
        model: null,
      });
      expect(result.body.hits[0].systemId).toBe(id);
      const res = await request(`${api.url}/marketplace/embeddingsSearch/createEmbeddings`, {
        key: KEYS.admin,
        body: { environment: 'qa' },
      });
      expect(res.status).toBe(409);
      expect((await res.json()).type).toBe('urn:dcg:marketplace-search:search_unavailable');
    } finally {
      await api.close();
    }
  });
});

const pgAvailable = await postgresAvailable();

describe.skipIf(!pgAvailable)('marketplace search over HTTP (PostgreSQL)', () => {
  const { schema, drop } = randomSchema();
  let api: RunningGovernanceApi;
  beforeAll(async () => {
    api = await start({ databaseUrl: TEST_DATABASE_URL, schema });
    await registerTemplate(api.url);
  });
  afterAll(async () => {
    await api?.close();
    await drop();
  });

  it('a second process on the same database finds what the first deploys, within the refresh interval', async () => {
    const other = await start({ databaseUrl: TEST_DATABASE_URL, schema });
    try {
      const id = await deploy(api, 'prod', 'Wind Turbines', 'Blade vibration telemetry', 'rpm');
      await expect
        .poll(
          async () =>
            (await search(other.url, { q: 'turbine vibration', environment: 'prod' })).body.hits[0]
              ?.systemId,
          { timeout: 10_000 },
        )
        .toBe(id);
      await request(`${api.url}/v1/provisioning/undeploy`, {
        key: KEYS.coordinator,
        body: { environment: 'prod', systemId: id },
      });
      await api.governance.coordinator.idle();
      await expect
        .poll(
          async () =>
            (await search(other.url, { q: id, environment: 'prod' })).body.hits.map(
              (h: { systemId: string }) => h.systemId,
            ),
          { timeout: 10_000 },
        )
        .not.toContain(id);
    } finally {
      await other.close();
    }
  });

  it('deploys, searches, rebuilds after a restart with another model, undeploys', async () => {
    const id = await deploy(
      api,
      'prod',
      'Shipments',
      'Parcels on their way to customers',
      'tracking_number',
    );
    await api.marketplaceSearch.idle();
    expect(
      (await search(api.url, { q: 'parcels', environment: 'prod' })).body.hits[0],
    ).toMatchObject({ systemId: id, matchedBy: expect.arrayContaining(['meaning']) });
    await api.close();
    api = await start({ databaseUrl: TEST_DATABASE_URL, schema, deployment: 'large' });
    await registerTemplate(api.url); // the demo adapter listens on a new port
    const res = await request(`${api.url}/marketplace/embeddingsSearch/createEmbeddings`, {
      key: KEYS.admin,
      body: { environment: 'prod' },
    });
    expect((await waitForJob(api.url, (await res.json()).id)).status).toBe('completed');
    expect((await search(api.url, { q: 'parcels', environment: 'prod' })).body).toMatchObject({
      mode: 'hybrid',
      model: 'azure_openai:text-embedding-3-large:128',
    });
    const undeploy = await request(`${api.url}/v1/provisioning/undeploy`, {
      key: KEYS.coordinator,
      body: { environment: 'prod', systemId: id },
    });
    expect(undeploy.status).toBe(202);
    await api.governance.coordinator.idle();
    await api.marketplaceSearch.idle();
    expect((await search(api.url, { q: 'parcels', environment: 'prod' })).body.hits).toEqual([]);
  });
});

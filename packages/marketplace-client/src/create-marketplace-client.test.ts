import { type SpawnedApp, spawnApp } from '@dcg/testing-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarketplaceClient } from './create-marketplace-client';
import { MarketplaceClientError, MarketplaceProblemError } from './marketplace-client-error';

const KEY = 'marketplace-client-test-key-0123';
const SYSTEM = 'urn:dmb:dp:finance:orders:0';
const CONTRACTS = {
  compliant: 'urn:dmb:cmp:finance:orders:0:orders-port',
  violated: 'urn:dmb:cmp:finance:orders:0:invoices-port',
};

describe('createMarketplaceClient against governance-api with its demo data', () => {
  let api: SpawnedApp;

  beforeAll(async () => {
    // The app as its own process: a package's tests never import an app.
    api = await spawnApp('governance-api', {
      demo: true,
      config: {
        auth: { apiKeys: [{ name: 'reader', key: KEY, role: 'reader' }], developmentKey: false },
        provisioning: { pollIntervalMs: 20, pollTimeoutMs: 5000, requestTimeoutMs: 5000 },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('lists instances and reads one, null when not deployed', async () => {
    const client = createMarketplaceClient({ baseUrl: api.url });
    const instances = await client.listInstances({ environment: 'production' });
    expect(instances.map((i) => i.systemId)).toEqual([SYSTEM]);
    const one = await client.getInstance(SYSTEM, { environment: 'production' });
    expect(one?.components.filter((c) => c.dataContract)).toHaveLength(3);
    expect(await client.getInstance('urn:dmb:dp:none:none:0')).toBeNull();
    expect(await client.listInstances({ environment: 'staging' })).toEqual([]);
  });

  it('reads the compliance of a violated contract with its failing requirements', async () => {
    const client = createMarketplaceClient({ baseUrl: api.url });
    const compliance = await client.getContractCompliance(CONTRACTS.violated, 'production');
    expect(compliance.status).toBe('violated');
    expect(compliance.counts.failing).toBeGreaterThan(0);
    expect(compliance.summary).toEqual(expect.any(String));
    const ok = await client.getContractCompliance(CONTRACTS.compliant, 'production');
    expect(ok.status).toBe('compliant');
  });

  it('lists policies with a key, and says 401 without one', async () => {
    const client = createMarketplaceClient({ baseUrl: api.url, apiKey: KEY });
    const page = await client.listPolicies({ resourceType: 'dataproduct' });
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((p) => p.resourceType === 'dataproduct')).toBe(true);
    expect((await client.listPolicies({ resourceType: 'no-such-type' })).data).toEqual([]);
    const anonymous = createMarketplaceClient({ baseUrl: api.url });
    const error = await anonymous.listPolicies().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarketplaceProblemError);
    expect((error as MarketplaceProblemError).status).toBe(401);
  });

  it('reads the deployed descriptor with its data contracts, without a key, null when not deployed', async () => {
    const client = createMarketplaceClient({ baseUrl: api.url });
    const deployed = await client.getDeployedDescriptor(SYSTEM, 'production');
    expect(deployed).toMatchObject({
      systemId: SYSTEM,
      environment: 'production',
      planId: expect.any(String),
      deployedAt: expect.any(String),
    });
    expect(deployed?.descriptor.id).toBe(SYSTEM);
    expect(JSON.stringify(deployed)).not.toContain('privateInfo');
    expect((await client.getDeployedDescriptor(SYSTEM))?.environment).toBe('production');
    expect(await client.getDeployedDescriptor('urn:dmb:dp:none:none:0')).toBeNull();
    const components = deployed?.descriptor.components as { id: string; dataContract?: unknown }[];
    expect(components.find((c) => c.id === CONTRACTS.violated)?.dataContract).toMatchObject({
      schema: expect.any(Array),
    });
    expect(await client.getDeployedDescriptor(SYSTEM, 'staging')).toBeNull();
  });

  it("searches every environment through governance-api's search, one page at a time", async () => {
    const requested: string[] = [];
    const client = createMarketplaceClient({
      baseUrl: api.url,
      fetch: (input, init) => {
        requested.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
        return fetch(input, init);
      },
    });
    const everywhere = await client.search('invoices');
    // Embeddings are off in this configuration: governance-api answers by words and says so.
    expect(everywhere.mode).toBe('lexical');
    expect(everywhere.fallback).toEqual(expect.any(String));
    expect(everywhere.hits[0]).toMatchObject({
      systemId: SYSTEM,
      why: expect.any(String),
      compliance: 'violated',
    });
    // Each hit carries its data contracts with their states: nothing else is read.
    expect(everywhere.hits[0]?.dataContracts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: CONTRACTS.violated, status: 'violated' }),
        expect.objectContaining({ id: CONTRACTS.compliant, status: 'compliant' }),
      ]),
    );
    expect(requested).toEqual(['/v1/marketplace/search']);
    const byUrn = await client.search(SYSTEM, { environment: 'production' });
    expect(byUrn.hits[0]).toMatchObject({ systemId: SYSTEM, environment: 'production' });
    expect(byUrn.hits[0]?.matchedBy).toContain('exact-urn');
    expect(byUrn.hits.every((hit) => hit.environment === 'production')).toBe(true);
    // Paging over one ranking of several environments is tested where the data can be seeded:
    // apps/mcp-server/src/search-marketplace.test.ts (two environments, cursor by cursor).
    const first = await client.search('finance', { limit: 1 });
    expect(first.hits).toHaveLength(1);
    expect(first.nextOffset).toBeUndefined();
    expect(requested.every((path) => path === '/v1/marketplace/search')).toBe(true);
  });

  it('rejects bad arguments before any request, with codes and paths', async () => {
    const client = createMarketplaceClient({ baseUrl: api.url });
    const error = await client.search('   ').catch((e: unknown) => e);
    expect(MarketplaceClientError.isInstance(error)).toBe(true);
    expect((error as MarketplaceClientError).code).toBe('invalid_argument');
    expect((error as MarketplaceClientError).issues[0]?.path).toEqual(['query']);
    const paging = await client.search('x', { limit: 51, offset: 951 }).catch((e: unknown) => e);
    expect((paging as MarketplaceClientError).issues.map((issue) => issue.path)).toEqual([
      ['limit'],
      ['offset'],
    ]);
    expect(() => createMarketplaceClient({ baseUrl: 'ftp://x' })).toThrow(/http/);
  });
});

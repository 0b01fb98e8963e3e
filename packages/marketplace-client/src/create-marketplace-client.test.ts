import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

  it("searches through governance-api's search endpoint, which says why each hit matched", async () => {
    const client = createMarketplaceClient({ baseUrl: api.url });
    const byName = await client.search('invoices', { environment: 'production' });
    // Embeddings are off in this configuration: governance-api answers by words and says so.
    expect(byName.mode).toBe('lexical');
    expect(byName.fallbackReason).toEqual(expect.any(String));
    expect(byName.hits[0]).toMatchObject({ systemId: SYSTEM, why: expect.any(String) });
    const byUrn = await client.search(SYSTEM, { environment: 'production' });
    expect(byUrn.hits[0]).toMatchObject({ systemId: SYSTEM });
    expect(byUrn.hits[0]?.matched).toContain('exact-urn');
    expect(byUrn.hits[0]?.instance?.systemId).toBe(SYSTEM);
    // Across environments this client ranks by words, and says so.
    const everywhere = await client.search('invoices');
    expect(everywhere.mode).toBe('lexical');
    expect(everywhere.fallbackReason).toMatch(/within one environment/);
    expect(everywhere.hits[0]?.systemId).toBe(SYSTEM);
  });

  it('rejects bad arguments before any request, with codes and paths', async () => {
    const client = createMarketplaceClient({ baseUrl: api.url });
    const error = await client.search('   ').catch((e: unknown) => e);
    expect(MarketplaceClientError.isInstance(error)).toBe(true);
    expect((error as MarketplaceClientError).code).toBe('invalid_argument');
    expect((error as MarketplaceClientError).issues[0]?.path).toEqual(['query']);
    expect(() => createMarketplaceClient({ baseUrl: 'ftp://x' })).toThrow(/http/);
  });
});

describe('createMarketplaceClient against a server that has the search endpoint', () => {
  let server: Server;
  let url: string;
  let searches = 0;
  let status = 200;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/v1/marketplace/search') {
        searches += 1;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            status === 200
              ? {
                  mode: 'hybrid',
                  model: 'local',
                  pending: 0,
                  hits: [
                    {
                      systemId: 'urn:dmb:dp:a:b:0',
                      environment: 'production',
                      name: 'B',
                      kind: 'dataproduct',
                      score: 0.9,
                      matchedBy: ['meaning'],
                      why: 'close in meaning (similarity 0.61, rank 1)',
                      vector: { rank: 1, similarity: 0.61 },
                    },
                  ],
                }
              : { title: 'Not Found', status },
          ),
        );
        return;
      }
      if (u.pathname === '/v1/marketplace/instances') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [] }));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('uses it when it answers, falls back on 404 and asks again after the probe interval', async () => {
    const client = createMarketplaceClient({ baseUrl: url, retries: 0, searchProbeIntervalMs: 50 });
    const hybrid = await client.search('orders', { environment: 'production' });
    expect(hybrid).toMatchObject({
      mode: 'hybrid',
      hits: [{ systemId: 'urn:dmb:dp:a:b:0', matched: ['meaning'] }],
    });
    expect(hybrid.fallbackReason).toBeUndefined();
    status = 404;
    expect((await client.search('orders', { environment: 'production' })).mode).toBe('lexical');
    const before = searches;
    expect((await client.search('orders', { environment: 'production' })).mode).toBe('lexical');
    expect(searches).toBe(before); // remembered: no second probe within the interval
    status = 200;
    await new Promise((r) => setTimeout(r, 60));
    expect((await client.search('orders', { environment: 'production' })).mode).toBe('hybrid');
  });

  it('falls back on a 503 and says why', async () => {
    status = 503;
    const client = createMarketplaceClient({ baseUrl: url, retries: 0 });
    const result = await client.search('orders', { environment: 'production' });
    expect(result.mode).toBe('lexical');
    expect(result.fallbackReason).toMatch(/failed.*503/);
    status = 200;
  });
});

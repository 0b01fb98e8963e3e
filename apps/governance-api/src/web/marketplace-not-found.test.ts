import { createGovernance, type Governance } from '@dcg/governance';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGovernanceApp } from '../app';

const SYSTEM = 'urn:dmb:dp:finance:orders:0';
const PORT = 'urn:dmb:cmp:finance:orders:0:orders-port';
const SILENT_PORT = 'urn:dmb:cmp:finance:orders:0:refunds-port';
const LOADER = 'urn:dmb:cmp:finance:orders:0:loader';
const RETIRED = 'urn:dmb:cmp:finance:legacy:0:port';
const EVIL = '"><script>alert(1)</script>';

const port = (id: string, name: string, publicInfo: Record<string, unknown> = {}) => ({
  id,
  name,
  kind: 'outputport',
  consumable: true,
  __dataContractEnabled: true,
  dataContract: { schema: [{ name: 'id', dataType: 'string' }] },
  info: { publicInfo, privateInfo: { password: 'private-never-shown' } },
});

/**
 * The real app over a real store, called in process: the pages and the JSON API answer the same
 * 404s for the same ids.
 */
describe('unknown contracts and non-contract components: 404 in the pages and the JSON API alike', () => {
  let governance: Governance;
  let app: ReturnType<typeof buildGovernanceApp>;

  beforeAll(async () => {
    governance = createGovernance(await openSqliteStore({ file: ':memory:' }), {
      results: { acceptUnguarded: true },
    });
    app = buildGovernanceApp({
      governance,
      apiKeys: [],
      logger: createLogger('test', { level: 'silent' }),
      maxBodyBytes: 1_048_576,
    });
    await governance.policies.create({
      id: 'orders-contracts',
      name: `Orders contracts ${EVIL}`,
      description: 'Checks the output ports of Orders',
      resourceType: 'dataproduct',
      trigger: 'passive',
    });
    // The instance as the provisioning coordinator stores it: each component with its adapter's info.
    await governance.store.putInstance({
      systemId: SYSTEM,
      environment: 'production',
      deployedAt: '2026-11-22T09:00:00.000Z',
      planId: 'plan-1',
      descriptor: {
        id: SYSTEM,
        name: 'Orders',
        kind: 'dataproduct',
        components: [
          port(PORT, 'Orders port', {
            table: { type: 'string', label: 'Table', value: `orders ${EVIL}` },
            dashboard: {
              type: 'link',
              label: 'Dashboard',
              value: 'Grafana',
              href: 'https://grafana.example/d/orders',
            },
            trap: { type: 'link', label: 'Trap', value: 'click', href: 'javascript:alert(1)' },
            connection: { host: 'db.internal', replicas: [1, 2], docs: 'http://docs.example/x' },
          }),
          port(SILENT_PORT, 'Refunds port'),
          {
            id: LOADER,
            name: 'Loader',
            kind: 'workload',
            info: { publicInfo: {}, privateInfo: {} },
          },
        ],
      },
    });
    for (const contract of [PORT, RETIRED]) {
      await governance.results.submit({
        policyId: 'orders-contracts',
        environment: 'production',
        body: [
          {
            resource: { id: contract, descriptor: '' },
            result: {
              satisfiesPolicy: true,
              details: { results: { root: [{ key: 'id_unique', compliant: true }] } },
            },
          },
        ],
      });
    }
  });
  afterAll(() => governance.store.close());

  const page = (id: string, environment = 'production') =>
    app.request(`/marketplace/data-contracts/${encodeURIComponent(id)}?environment=${environment}`);
  const json = (id: string, environment = 'production') =>
    app.request(
      `/v1/marketplace/data-contracts/${encodeURIComponent(id)}/compliance?environment=${environment}`,
    );

  it('answers an unknown contract with 404 in both', async () => {
    for (const [id, environment] of [
      ['urn:dmb:cmp:finance:orders:0:nothing', 'production'],
      [PORT, 'staging'],
    ] as const) {
      const html = await page(id, environment);
      expect(html.status).toBe(404);
      expect(html.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await html.text()).toContain(
        `<h1>Data contract not found in environment ${environment}</h1>`,
      );
      const api = await json(id, environment);
      expect(api.status).toBe(404);
      expect(api.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await api.json()).toMatchObject({
        status: 404,
        detail: `No data contract "${id}" is deployed or reported on in environment "${environment}"`,
      });
    }
  });

  it('never gives a component that is not a data contract a "Data contract" page', async () => {
    const html = await page(LOADER);
    expect(html.status).toBe(404);
    const body = await html.text();
    expect(body).toContain('<h1>Loader is not a data contract</h1>');
    expect(body).not.toContain('<h1>Data contract');
    expect(body).toContain(
      `<a href="/marketplace/systems/${encodeURIComponent(SYSTEM)}?environment=production#${encodeURIComponent(LOADER)}">See Loader on the page of Orders</a>`,
    );
    const api = await json(LOADER);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { detail: string }).detail).toBe(
      `"${LOADER}" is a component of system "${SYSTEM}" in environment "production" but not a data contract`,
    );
    // Without an environment too: no environment makes it a data contract.
    const anyEnvironment = await app.request(
      `/marketplace/data-contracts/${encodeURIComponent(LOADER)}`,
    );
    expect(anyEnvironment.status).toBe(404);
    expect(await anyEnvironment.text()).toContain('<h1>Loader is not a data contract</h1>');
    // Its history is no page either.
    expect(
      (
        await app.request(
          `/marketplace/data-contracts/${encodeURIComponent(LOADER)}/history?environment=production`,
        )
      ).status,
    ).toBe(404);
  });

  it('answers 200 in both for a deployed contract without results and one known by its results', async () => {
    for (const id of [SILENT_PORT, RETIRED]) {
      expect((await page(id)).status).toBe(200);
      expect((await json(id)).status).toBe(200);
    }
    expect(((await (await json(SILENT_PORT)).json()) as { status: string }).status).toBe('unknown');
  });

  it('shows the policy by name with a link, and the policy page escapes it', async () => {
    const body = await (await page(PORT)).text();
    // The contract page shows its port's Technical information too.
    expect(body).toContain('<h2 id="tech-info-heading">Technical information</h2>');
    expect(body).toContain(
      '<a href="https://grafana.example/d/orders" rel="noopener noreferrer nofollow">Grafana</a>',
    );
    expect(body).toContain(
      '<dt>Policy</dt><dd><a href="/marketplace/policies/orders-contracts">Orders contracts &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a></dd>',
    );
    const policy = await app.request('/marketplace/policies/orders-contracts');
    expect(policy.status).toBe(200);
    const policyBody = await policy.text();
    expect(policyBody).toContain('<h1>Policy Orders contracts &quot;&gt;&lt;script&gt;');
    expect(policyBody).toContain('passive (evaluated outside deployment, as guardians do)');
    expect(policyBody).not.toContain('<script>');

    const missing = await app.request(`/marketplace/policies/${encodeURIComponent(EVIL)}`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('<script>');
    expect((await app.request(`/marketplace/policies/${'p'.repeat(600)}`)).status).toBe(404);
  });

  it('shows the Technical information of each component on the system page, escaped, links only to the web', async () => {
    const response = await app.request(
      `/marketplace/systems/${encodeURIComponent(SYSTEM)}?environment=production`,
    );
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain('<h3 id="tech-0">Technical information</h3>');
    expect(body).toContain(
      '<dt data-key="table">Table</dt><dd>orders &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</dd>',
    );
    expect(body).toContain(
      '<a href="https://grafana.example/d/orders" rel="noopener noreferrer nofollow">Grafana</a>',
    );
    expect(body).toContain('<dt data-key="trap">Trap</dt><dd>click</dd>');
    expect(body).not.toContain('javascript:');
    expect(body).toContain(
      '<dt data-key="connection">Connection</dt><dd><dl><dt>Host</dt><dd>db.internal</dd><dt>Replicas</dt><dd><ul><li>1</li><li>2</li></ul></dd><dt>Docs</dt><dd><a href="http://docs.example/x" rel="noopener noreferrer nofollow">http://docs.example/x</a></dd></dl></dd>',
    );
    expect(body).not.toContain('<script>');
    expect(body).not.toContain('private-never-shown');
    // Components without public info get no card; the loader says it is not a data contract.
    expect(body.match(/Technical information<\/h3>/g)).toHaveLength(1);
    expect(body).toContain(`<section class="component" id="${LOADER}"`);

    // The latest deployment without an environment; 404 for an unknown system.
    expect((await app.request(`/marketplace/systems/${encodeURIComponent(SYSTEM)}`)).status).toBe(
      200,
    );
    const unknown = await app.request(
      `/marketplace/systems/${encodeURIComponent(EVIL)}?environment=${encodeURIComponent(EVIL)}`,
    );
    expect(unknown.status).toBe(404);
    const unknownBody = await unknown.text();
    expect(unknownBody).toContain('<h1>System not found</h1>');
    expect(unknownBody).not.toContain('<script>');
  });
});

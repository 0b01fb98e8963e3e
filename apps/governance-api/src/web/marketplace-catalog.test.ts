import { createGovernance, type Governance } from '@dcg/governance';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { createLogger } from '@dcg/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGovernanceApp } from '../app';
import { ENTRIES, ORDERS, POLICY, SHOP, seedCatalog, UNGUARDED } from './__fixtures__/catalog-seed';

/** The real app over a real store, called in process through `app.request()`. */
describe('the marketplace as a catalog: who owns what, worst first, the contract itself, JSON twins', () => {
  let governance: Governance;
  let app: ReturnType<typeof buildGovernanceApp>;
  let firstSeq = 0;

  beforeAll(async () => {
    governance = createGovernance(await openSqliteStore({ file: ':memory:' }));
    app = buildGovernanceApp({
      governance,
      apiKeys: [],
      logger: createLogger('test', { level: 'silent' }),
      maxBodyBytes: 1_048_576,
    });
    ({ firstSeq } = await seedCatalog(governance));
  });
  afterAll(() => governance.store.close());

  const html = async (path: string) => {
    const response = await app.request(path);
    return { status: response.status, text: await response.text(), response };
  };

  it('shows each system with its description, domain and owner, worst state first, with counts', async () => {
    const { status, text } = await html('/marketplace');
    expect(status).toBe(200);
    expect(text).toContain('Orders placed in the web shop');
    expect(text).toContain('<dt>Domain</dt><dd>sales</dd>');
    expect(text).toContain('<dt>Owner</dt><dd>Jane Doe</dd>');
    expect(text).toContain('<dt>Owner</dt><dd>team-finance</dd>');
    // Shop is violated, the ledger compliant, Aardvark has no contract: in that order, not by name.
    const order = ['Shop', 'Accounts ledger', 'Aardvark tools'].map((name) =>
      text.indexOf(`>${name}</a></h2>`),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain('Violated: 1');
    expect(text).toContain('Compliant: 1');
    expect(text).toContain('No data contracts: 1');
    expect(text).toContain('href="/marketplace?compliance=violated"');
  });

  it('honours ?compliance= like the API, and refuses an unknown state with the allowed ones', async () => {
    const violated = await html('/marketplace?compliance=violated');
    expect(violated.status).toBe(200);
    expect(violated.text).toContain('>Shop</a></h2>');
    expect(violated.text).not.toContain('>Accounts ledger</a></h2>');
    expect(violated.text).toContain('<option value="violated" selected>');
    const two = await html('/marketplace?compliance=compliant,none');
    expect(two.text).toContain('>Accounts ledger</a></h2>');
    expect(two.text).toContain('>Aardvark tools</a></h2>');
    expect(two.text).not.toContain('>Shop</a></h2>');
    const bad = await html('/marketplace?compliance=broken');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Unknown compliance state “broken”');
    const badJson = await app.request('/marketplace?compliance=broken', {
      headers: { accept: 'application/json' },
    });
    expect(badJson.status).toBe(400);
    expect(badJson.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('answers the list as JSON with the API vocabulary, for Accept and for ?format=json', async () => {
    for (const init of [{ headers: { accept: 'application/json' } }, undefined]) {
      const response = await app.request(
        init ? '/marketplace?compliance=violated' : '/marketplace?compliance=violated&format=json',
        init,
      );
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as {
        data: Array<{ systemId: string; compliance: string; owner?: string; domain?: string }>;
        counts: Record<string, number>;
      };
      expect(body.data.map((i) => [i.systemId, i.compliance, i.owner, i.domain])).toEqual([
        [SHOP, 'violated', 'Jane Doe', 'sales'],
      ]);
      expect(body.counts).toEqual({
        violated: 1,
        unprocessable: 0,
        unknown: 0,
        compliant: 1,
        none: 1,
      });
    }
    // The JSON API agrees on the instance's state and facts.
    const api = (await (
      await app.request(`/v1/marketplace/instances/${encodeURIComponent(SHOP)}`)
    ).json()) as Record<string, unknown>;
    expect(api).toMatchObject({
      compliance: 'violated',
      owner: 'Jane Doe',
      domain: 'sales',
      description: 'Orders placed in the web shop',
    });
  });

  it('shows the facts on the system page, and its JSON twin', async () => {
    const path = `/marketplace/systems/${encodeURIComponent(SHOP)}?environment=production`;
    const { text } = await html(path);
    expect(text).toContain('Orders placed in the web shop');
    expect(text).toContain('<dt>Owner</dt><dd>Jane Doe</dd>');
    const json = (await (await app.request(`${path}&format=json`)).json()) as { name: string };
    expect(json.name).toBe('Shop');
  });

  it('shows the contract itself beside the latest outcome of the requirements about each column', async () => {
    const { text } = await html(
      `/marketplace/data-contracts/${encodeURIComponent(ORDERS)}?environment=production`,
    );
    expect(text).toContain('<h2 id="contract-heading">The contract</h2>');
    const amount = text.slice(text.indexOf('<tr data-column="amount">'));
    const row = amount.slice(0, amount.indexOf('</tr>'));
    expect(row).toContain('decimal');
    expect(row).toContain('required');
    expect(row).toContain('Gross amount');
    expect(row).toContain('<span class="outcome-failing">failing</span>: amount is never null');
    const key = text.slice(text.indexOf('<tr data-column="order_id">'));
    expect(key.slice(0, key.indexOf('</tr>'))).toContain('primary key');
    expect(key.slice(0, key.indexOf('</tr>'))).toContain('met</span>: order_id_unique');
    expect(text).toContain('never empty: must be greater than 0');
    expect(text).toContain('<dt>timeliness</dt><dd>2 hours</dd>');
    const json = (await (
      await app.request(
        `/marketplace/data-contracts/${encodeURIComponent(ORDERS)}?environment=production`,
        { headers: { accept: 'application/json' } },
      )
    ).json()) as {
      status: string;
      dataContract: { columns: Array<{ name: string; required: boolean }> };
    };
    expect(json.status).toBe('violated');
    expect(json.dataContract.columns.map((c) => [c.name, c.required])).toEqual([
      ['order_id', true],
      ['amount', true],
      ['note', false],
    ]);
  });

  it('says plainly that no guardian guards a contract, and what to do', async () => {
    const { text } = await html(
      `/marketplace/data-contracts/${encodeURIComponent(UNGUARDED)}?environment=production`,
    );
    expect(text).toContain('No guardian guards this data contract');
    expect(text).toContain('none: no guardian guards it');
    expect(text).not.toContain('appears here once one arrives');
  });

  it('lists the contracts a policy guards, with their state', async () => {
    const { text } = await html(`/marketplace/policies/${POLICY}`);
    expect(text).toContain('Data contracts it guards');
    expect(text).toContain(`<code>${ORDERS}</code>`);
    expect(text).toContain(`<code>${ENTRIES}</code>`);
    expect(text).not.toContain(`<code>${UNGUARDED}</code>`);
    const json = (await (
      await app.request(`/marketplace/policies/${POLICY}?format=json`)
    ).json()) as {
      id: string;
      guardedContracts: Array<{ contractId: string; status: string }>;
    };
    expect(json.guardedContracts.map((g) => [g.contractId, g.status])).toEqual([
      [ENTRIES, 'compliant'],
      [ORDERS, 'violated'],
    ]);
  });

  it('opens each history entry on the records of that result', async () => {
    const contract = encodeURIComponent(ORDERS);
    const history = await html(
      `/marketplace/data-contracts/${contract}/history?environment=production`,
    );
    const link = `/marketplace/data-contracts/${contract}/results/${firstSeq}?environment=production`;
    expect(history.text).toContain(`href="${link}"`);
    const first = await html(link);
    expect(first.status).toBe(200);
    expect(first.text).toContain(`<h1>Result ${firstSeq} of Orders</h1>`);
    expect(first.text).toContain('data-status="compliant"');
    expect(first.text).toContain('amount is never null');
    const json = (await (await app.request(`${link}&format=json`)).json()) as {
      seq: number;
      status: string;
    };
    expect(json).toMatchObject({ seq: firstSeq, status: 'compliant' });
    const missing = await html(
      `/marketplace/data-contracts/${contract}/results/999999?environment=production`,
    );
    expect(missing.status).toBe(404);
    const nonsense = await html(
      `/marketplace/data-contracts/${contract}/results/abc?environment=production`,
    );
    expect(nonsense.status).toBe(404);
  });
});

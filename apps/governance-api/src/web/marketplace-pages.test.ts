import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arrayReadModel,
  BROKEN_PORT,
  compliantView,
  INVOICES_PORT,
  ORDERS_PORT,
  ordersInstance,
  stagingInstance,
  unprocessableView,
  violatedView,
} from './__fixtures__/marketplace-views';
import { marketplacePages } from './index';

const pages = marketplacePages(
  arrayReadModel(
    [ordersInstance, stagingInstance],
    [violatedView, compliantView, unprocessableView],
  ),
);

function contractUrl(id: string, environment?: string): string {
  const base = `/marketplace/data-contracts/${encodeURIComponent(id)}`;
  return environment === undefined ? base : `${base}?environment=${environment}`;
}

describe('marketplacePages', () => {
  it('serves the list page as HTML with a strict content security policy', async () => {
    const response = await pages.request('/marketplace');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const body = await response.text();
    expect(body).toContain('2 instances in all environments');
  });

  it('filters the list by environment and answers 404 with help for an unknown one', async () => {
    const staging = await pages.request('/marketplace?environment=staging');
    expect(staging.status).toBe(200);
    expect(await staging.text()).toContain('1 instance in environment staging');

    const unknown = await pages.request('/marketplace?environment=prod');
    expect(unknown.status).toBe(404);
    const body = await unknown.text();
    expect(body).toContain('No instances in environment prod');
    expect(body).toContain('href="/marketplace?environment=production"');

    const blank = await pages.request('/marketplace?environment=%20');
    expect(await blank.text()).toContain('2 instances in all environments');
  });

  it('redirects trimmed addresses to the list page, keeping the filter', async () => {
    for (const path of [
      '/marketplace/',
      '/marketplace/data-contracts',
      '/marketplace/data-contracts/',
    ]) {
      const response = await pages.request(`${path}?environment=staging`);
      expect(response.status).toBe(301);
      expect(response.headers.get('location')).toBe('/marketplace?environment=staging');
    }
  });

  it('serves the page of each contract state', async () => {
    const violated = await pages.request(contractUrl(ORDERS_PORT, 'production'));
    expect(violated.status).toBe(200);
    expect(violated.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(violated.headers.get('cache-control')).toBe('no-cache');
    const violatedBody = await violated.text();
    expect(violatedBody).toContain('<h1>Data contract Orders port</h1>');
    expect(violatedBody).toContain('One or more data contract violations detected');
    expect(violatedBody).toContain(
      '<a href="/marketplace/systems/urn%3Admb%3Adp%3Afinance%3Aorders%3A0?environment=production">Orders</a>',
    );

    const compliant = await (await pages.request(contractUrl(INVOICES_PORT, 'production'))).text();
    expect(compliant).toContain('data-status="compliant"');

    const unprocessable = await (
      await pages.request(contractUrl(BROKEN_PORT, 'production'))
    ).text();
    expect(unprocessable).toContain('The monitoring results cannot be processed');
    expect(unprocessable).toContain(
      '<span class="where">root › record 1</span>: This record has both',
    );
    expect(unprocessable).not.toContain('$[0]');
  });

  it('shows a deployed contract without results as unknown', async () => {
    const response = await pages.request(contractUrl(ORDERS_PORT, 'staging'));
    expect(response.status).toBe(200);
    // The fixture's read model knows no guardian: the page says so, and what to do.
    const text = await response.text();
    expect(text).toContain('No guardian guards this data contract');
    expect(text).toContain('__dataContractGuardianSpec.guards');
    expect(text).not.toContain('appears here once one arrives');
  });

  it('answers 400 with the environments to choose from when the environment is missing', async () => {
    const response = await pages.request(contractUrl(ORDERS_PORT));
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toContain('<h1>Choose an environment</h1>');
    expect(body).toContain(`href="${contractUrl(ORDERS_PORT, 'production')}"`);
    expect(body).toContain(`href="${contractUrl(ORDERS_PORT, 'staging')}"`);
  });

  it('finds contracts whose URN does not name their system by convention', async () => {
    const odd = {
      ...ordersInstance,
      systemId: 'urn:dmb:dp:other:system:1',
      name: 'Other system',
      components: [{ id: ORDERS_PORT, name: 'Moved port', dataContract: true }],
    };
    const moved = marketplacePages(arrayReadModel([odd], [violatedView]));
    const body = await (await moved.request(contractUrl(ORDERS_PORT, 'production'))).text();
    expect(body).toContain('<h1>Data contract Moved port</h1>');
    expect(body).toContain('>Other system</a>');
  });

  it('answers 404 with help for an unknown contract or a wrong environment', async () => {
    const unknown = await pages.request(contractUrl('urn:dmb:cmp:nowhere:x:0:port', 'production'));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-security-policy')).toContain("default-src 'none'");
    const body = await unknown.text();
    expect(body).toContain('Data contract not found in environment production');
    expect(body).toContain('It is not deployed in any environment.');

    const wrongEnvironment = await pages.request(contractUrl(ORDERS_PORT, 'prod'));
    expect(wrongEnvironment.status).toBe(404);
    const help = await wrongEnvironment.text();
    expect(help).toContain('Where this data contract is deployed');
    expect(help).toContain(`href="${contractUrl(ORDERS_PORT, 'production')}"`);
  });

  it('answers any contract id and environment with an HTML page, never an error', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('%', '%E0%A4%A', '%00', '..', '%2F', '<script>', ORDERS_PORT, 'production'),
    );
    await fc.assert(
      fc.asyncProperty(text, fc.option(text), async (id, environment) => {
        const query = environment === null ? '' : `?environment=${encodeURIComponent(environment)}`;
        const response = await pages.request(
          `/marketplace/data-contracts/${encodeURIComponent(id) || '%20'}${query}`,
        );
        // `.` and `..` segments resolve to the list page, which redirects.
        if (response.status === 301) return;
        expect([200, 400, 404]).toContain(response.status);
        expect(response.headers.get('content-type')).toMatch(/^text\/html/);
        expect(await response.text()).not.toContain('<script>');
      }),
      { numRuns: 200 },
    );
  });
});

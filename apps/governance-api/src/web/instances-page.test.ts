import { describe, expect, it } from 'vitest';
import { ordersInstance, stagingInstance } from './__fixtures__/marketplace-views';
import { instancesPage } from './instances-page';

describe('instancesPage', () => {
  it('lists instances with a status badge and a link per data contract', () => {
    const out = String(
      instancesPage({ instances: [ordersInstance], environments: ['production', 'staging'] }),
    );
    expect(out).toContain('<h1>Marketplace</h1>');
    expect(out).toContain('<p role="status">1 instance in all environments</p>');
    expect(out).toContain(
      '<h2 id="instance-0"><a href="/marketplace/systems/urn%3Admb%3Adp%3Afinance%3Aorders%3A0?environment=production">Orders</a></h2>',
    );
    expect(out).toContain('id="urn:dmb:dp:finance:orders:0@production"');
    expect(out).toContain(
      '3 data contracts: 1 violated, 1 with results that cannot be processed, 1 compliant',
    );
    expect(out).toContain(
      '<a href="/marketplace/data-contracts/urn%3Admb%3Acmp%3Afinance%3Aorders%3A0%3Aorders-port?environment=production" aria-label="Orders port: Violated, view compliance details">',
    );
    expect(out).toContain('data-status="unprocessable"');
    expect(out).toContain('<span class="muted">Not a data contract</span>');
    expect(out).toContain('<caption class="visually-hidden">Components of Orders</caption>');
    expect(out).toContain('<option value="" selected>All environments</option>');
  });

  it('shows contracts without results as unknown and keeps the chosen environment selected', () => {
    const out = String(
      instancesPage({
        instances: [stagingInstance],
        environment: 'staging',
        environments: ['production', 'staging'],
      }),
    );
    expect(out).toContain('<option value="staging" selected>staging</option>');
    expect(out).toContain('3 data contracts: 3 without results yet');
    expect(out).toContain('1 instance in environment staging');
  });

  it('helps when an environment has no instances', () => {
    const out = String(
      instancesPage({
        instances: [],
        environment: 'prod',
        environments: ['production', 'staging'],
      }),
    );
    expect(out).toContain('No instances in environment prod');
    expect(out).toContain('<li><a href="/marketplace?environment=production">production</a></li>');
    expect(out).toContain('<a href="/marketplace">Show all environments</a>');
  });

  it('has an empty state when nothing is deployed', () => {
    const out = String(instancesPage({ instances: [], environments: [] }));
    expect(out).toContain('No system is deployed yet.');
  });

  it('escapes instance and component fields', () => {
    const evil = '<b onclick="x">';
    const out = String(
      instancesPage({
        instances: [
          {
            ...ordersInstance,
            name: evil,
            kind: evil,
            version: evil,
            environment: evil,
            components: [{ id: evil, name: evil, kind: evil, dataContract: true }],
          },
        ],
        environments: [evil],
      }),
    );
    expect(out).not.toContain('<b onclick');
    expect(out).toContain('&lt;b onclick=&quot;x&quot;&gt;');
  });
});

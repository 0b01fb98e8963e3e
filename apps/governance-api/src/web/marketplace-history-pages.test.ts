import type { CurrentResultStatus, Policy } from '@dcg/governance';
import { describe, expect, it } from 'vitest';
import {
  arrayReadModel,
  compliantView,
  ORDERS_PORT,
  ordersInstance,
  viewTree,
  violatedView,
} from './__fixtures__/marketplace-views';
import { complianceTree, MAX_INDENTED_DEPTH } from './compliance-tree';
import { marketplacePages } from './index';

const policy = (id: string, name: string): Policy => ({
  id,
  name,
  description: '',
  resourceType: 'dataproduct',
  trigger: 'passive',
  status: 'enabled',
  environment: null,
  templateId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

// 23 results, oldest first: compliant until the 20th, violated since.
const states: CurrentResultStatus[] = Array.from({ length: 23 }, (_, i) => ({
  contractId: ORDERS_PORT,
  policyId: i === 0 ? 'old-policy' : 'policy-dataproduct-guardian',
  seq: i + 1,
  status: i >= 20 ? 'violated' : 'compliant',
  receivedAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
}));

const pages = marketplacePages(
  arrayReadModel([ordersInstance], [violatedView, compliantView], {
    states,
    policies: [policy('policy-dataproduct-guardian', 'Orders contracts')],
  }),
  { historyPageSize: 10 },
);

const history = (page?: string) =>
  pages.request(
    `/marketplace/data-contracts/${encodeURIComponent(ORDERS_PORT)}/history?environment=production${page === undefined ? '' : `&page=${page}`}`,
  );
const seqs = (body: string) => [...body.matchAll(/data-seq="(\d+)"/g)].map((m) => Number(m[1]));

describe('the result history of a data contract', () => {
  it('shows the latest 10 states on the contract page, with links to the rest', async () => {
    const body = await (
      await pages.request(
        `/marketplace/data-contracts/${encodeURIComponent(ORDERS_PORT)}?environment=production`,
      )
    ).text();
    expect(body).toContain('<h2 id="history-heading">Result history</h2>');
    expect(body).toContain('The latest 10 of 23 results, newest first.');
    expect(seqs(body)).toEqual([23, 22, 21, 20, 19, 18, 17, 16, 15, 14]);
    // The state changed from compliant to violated with result 21.
    expect(body).toMatch(/data-seq="21">.*?Violated<\/span> <span class="change">changed<\/span>/);
    expect(body).toContain(
      `<a href="/marketplace/data-contracts/${encodeURIComponent(ORDERS_PORT)}/history?environment=production">All 23 results</a>`,
    );
    // The policy is named once where the list starts, not on each of its results.
    expect(
      body.match(
        /policy <a href="\/marketplace\/policies\/policy-dataproduct-guardian">Orders contracts<\/a>/g,
      ),
    ).toHaveLength(1);
    expect(body).toContain(
      '<time datetime="2026-11-01T00:22:00.000Z">2026-11-01 00:22:00 UTC</time>',
    );
  });

  it('pages the history, clamps pages out of range and names a removed policy by its id', async () => {
    expect(seqs(await (await history()).text())).toEqual([23, 22, 21, 20, 19, 18, 17, 16, 15, 14]);
    const last = await (await history('3')).text();
    expect(seqs(last)).toEqual([3, 2, 1]);
    expect(last).toContain('Results 21 to 23 of 23 in environment production, newest first.');
    expect(last).toContain('rel="prev">Newer results</a>');
    expect(last).not.toContain('rel="next"');
    expect(last).toContain(
      '<code>old-policy</code> <span class="muted">(no such policy any more)</span>',
    );
    for (const odd of ['99', '-4', 'abc', '1e9']) {
      const response = await history(odd);
      expect(response.status).toBe(200);
      expect(seqs(await response.text()).length).toBeGreaterThan(0);
    }
    expect((await history()).status).toBe(200);
    const noEnvironment = await pages.request(
      `/marketplace/data-contracts/${encodeURIComponent(ORDERS_PORT)}/history`,
    );
    expect(noEnvironment.status).toBe(400);
  });
});

describe('the verdict override note', () => {
  it('says that a compliant verdict overrides failing requirements instead of contradicting the counts', async () => {
    const view = {
      ...violatedView,
      status: 'compliant' as const,
      override: {
        code: 'compliant_despite_failing' as const,
        message: 'The guardian declared the data contract compliant although 1 requirement fails.',
      },
    };
    const body = await (
      await marketplacePages(arrayReadModel([ordersInstance], [view])).request(
        `/marketplace/data-contracts/${encodeURIComponent(ORDERS_PORT)}?environment=production`,
      )
    ).text();
    expect(body).toContain(
      '<p class="override" role="note" data-override="compliant_despite_failing"><strong>The verdict overrides the records.</strong> The guardian declared the data contract compliant although 1 requirement fails.</p>',
    );
    expect(body).toContain(
      '<dd>2 met, 1 failing <span class="muted">(the guardian\'s verdict decides the status)</span></dd>',
    );
  });
});

describe('deep trees', () => {
  it('stop indenting beyond the cap and show the level instead', () => {
    type Node = Parameters<typeof viewTree>[0][number];
    let node: Node = { key: 'leaf', compliant: false, issues: ['deep issue'] };
    for (let level = 12; level >= 1; level--) node = { key: `level-${level}`, children: [node] };
    const out = String(complianceTree(viewTree([node])));
    // Lists below the cap are flat; the ones above it indent.
    expect(out.match(/<ul class="flat">/g)).toHaveLength(12 - MAX_INDENTED_DEPTH + 1);
    expect(out.match(/<ul>/g)).toHaveLength(MAX_INDENTED_DEPTH - 1);
    expect(out).not.toContain('>level 6<');
    expect(out).toContain(
      '<span class="depth" title="Nested 7 levels deep">level 7</span> <span class="node-name">level-7</span>',
    );
    expect(out).toContain(
      'title="Nested 13 levels deep">level 13</span> <span class="node-name">leaf',
    );
  });
});

import type { MarketplaceInstanceView } from '@dcg/governance';
import { MarketplaceSearch } from '@dcg/marketplace-search';
import { openSqliteEmbeddingStore } from '@dcg/marketplace-search/node';
import { generateMarketplace, systemUrn } from '@dcg/marketplace-search/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayReadModel } from './__fixtures__/marketplace-views';
import { marketplacePages } from './index';

const instances = generateMarketplace({ environment: 'production', count: 45 });
const views: MarketplaceInstanceView[] = instances.map((i) => ({
  systemId: i.systemId,
  name: i.descriptor.name as string,
  kind: 'dataproduct',
  environment: i.environment,
  deployedAt: i.deployedAt,
  components: (i.descriptor.components as Array<{ id: string; name: string; kind: string }>).map(
    (c) => ({
      id: c.id,
      name: c.name,
      kind: c.kind,
      dataContract: c.kind === 'outputport',
    }),
  ),
}));

let search: MarketplaceSearch;
let close: () => Promise<void>;
beforeAll(async () => {
  const store = await openSqliteEmbeddingStore({ file: ':memory:' });
  search = new MarketplaceSearch({
    store,
    provider: null,
    source: { listInstances: async () => instances },
  });
  await search.start();
  close = async () => {
    await search.close();
    await store.close();
  };
});
afterAll(() => close());

const cards = (body: string) =>
  [...body.matchAll(/<h2 id="instance-\d+"><a [^>]*>([^<]+)<\/a><\/h2>/g)].map((m) => m[1]);

describe('the marketplace list page: paging and search', () => {
  it('shows one page of 20 instances with links to the next and previous pages', async () => {
    const pages = marketplacePages(arrayReadModel(views, []), { search });
    const first = await (await pages.request('/marketplace')).text();
    expect(first).toContain('45 instances in all environments');
    expect(cards(first)).toHaveLength(20);
    expect(first).toContain('Page 1 of 3');
    expect(first).toContain('href="/marketplace?page=2" rel="next"');
    expect(first).not.toContain('rel="prev"');
    const last = await (await pages.request('/marketplace?page=3')).text();
    expect(cards(last)).toHaveLength(5);
    expect(last).toContain('href="/marketplace?page=2" rel="prev"');
    // Out of range or not a number: the nearest page, never an error.
    expect(cards(await (await pages.request('/marketplace?page=99')).text())).toHaveLength(5);
    expect(cards(await (await pages.request('/marketplace?page=x')).text())).toHaveLength(20);
  });

  it('has a search box whose hits come first, each saying why it matched', async () => {
    const pages = marketplacePages(arrayReadModel(views, []), { search });
    const res = await pages.request('/marketplace?q=receivables+debtor&environment=production');
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('<input id="q" name="q" type="search"');
    expect(body).toContain('value="receivables debtor"');
    expect(body).toMatch(/\d+ match(es)? for “receivables debtor” in environment production/);
    expect(cards(body)[0]).toMatch(/^Receivables Aging/);
    expect(body).toContain(
      'Why it matched: Words: &quot;receivable&quot;, &quot;debtor&quot; (rank 1 by words).',
    );
    expect(body).toContain('Matched by words only: embeddings search is disabled.');
  });

  it('finds an instance by URN, keeps the search in the paging links, and says when nothing matches', async () => {
    const pages = marketplacePages(arrayReadModel(views, []), { search, pageSize: 2 });
    const urn = systemUrn('finance', 'fx-rates', 'Online');
    const byUrn = await (await pages.request(`/marketplace?q=${encodeURIComponent(urn)}`)).text();
    expect(cards(byUrn)[0]).toBe('Exchange Rates Online');
    expect(byUrn).toContain('Why it matched: Its URN is the query');
    const paged = await (
      await pages.request('/marketplace?q=finance&environment=production')
    ).text();
    expect(paged).toContain(
      'href="/marketplace?environment=production&amp;q=finance&amp;page=2" rel="next"',
    );
    const none = await pages.request('/marketplace?q=zebra+migration');
    expect(none.status).toBe(200);
    const body = await none.text();
    expect(body).toContain('Nothing matches “zebra migration”');
    expect(body).toContain('0 matches for “zebra migration” in all environments');
  });

  it('searches all environments with one call, ranked as the API ranks them', async () => {
    const staging = generateMarketplace({ environment: 'staging', count: 10 });
    const everywhere = [
      ...views,
      ...views.slice(0, 10).map((v) => ({ ...v, environment: 'staging' })),
    ];
    const store = await openSqliteEmbeddingStore({ file: ':memory:' });
    const both = new MarketplaceSearch({
      store,
      provider: null,
      source: { listInstances: async () => [...instances, ...staging] },
    });
    await both.start();
    try {
      const calls: unknown[] = [];
      const counted = {
        search: (query: Parameters<MarketplaceSearch['search']>[0]) => {
          calls.push(query);
          return both.search(query);
        },
      };
      const pages = marketplacePages(arrayReadModel(everywhere, []), { search: counted });
      const body = await (await pages.request('/marketplace?q=receivables+debtor')).text();
      expect(calls).toEqual([{ q: 'receivables debtor', limit: 50 }]);
      const api = await both.search({ q: 'receivables debtor', limit: 50 });
      const names = new Map(everywhere.map((v) => [`${v.environment} ${v.systemId}`, v.name]));
      expect(cards(body)).toEqual(
        api.hits.slice(0, 20).map((h) => names.get(`${h.environment} ${h.systemId}`)),
      );
      expect(new Set(api.hits.map((h) => h.environment))).toEqual(
        new Set(['production', 'staging']),
      );
    } finally {
      await both.close();
      await store.close();
    }
  });

  it('escapes the search text', async () => {
    const pages = marketplacePages(arrayReadModel(views, []), { search });
    const body = await (
      await pages.request(`/marketplace?q=${encodeURIComponent('<script>alert(1)</script>')}`)
    ).text();
    expect(body).not.toContain('<script>alert(1)</script>');
    expect(body).toContain('&lt;script&gt;');
  });
});

describe('how search ranks', () => {
  it('is linked from every search result and says how name, words and meaning combine', async () => {
    const pages = marketplacePages(arrayReadModel(views, []), { search });
    const results = await (await pages.request('/marketplace?q=invoices')).text();
    expect(results).toContain('<a href="/marketplace/how-search-ranks">How search ranks</a>');
    // Without a search there is no ranking to explain.
    expect(await (await pages.request('/marketplace')).text()).not.toContain('how-search-ranks');
    const help = await pages.request('/marketplace/how-search-ranks');
    expect(help.status).toBe(200);
    const text = (await help.text()).replace(/<[^>]+>/g, '');
    expect(text).toContain('How search ranks');
    for (const said of [
      'The name or URN you typed',
      'reciprocal rank fusion',
      'counts 60 % of a word as typed',
      'synonyms from a thesaurus (WordNet) count 40 %',
      'close in meaning',
      'is not shown',
    ]) {
      expect(text).toContain(said);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { instanceDocument, type SearchableInstance } from './instance-text';
import { instanceKey, LexicalIndex, SYNONYM_WEIGHT, TYPO_WEIGHT } from './lexical-index';

const instance = (
  systemId: string,
  name: string,
  description: string,
  environment = 'production',
): SearchableInstance => ({
  systemId,
  environment,
  deployedAt: '2026-01-01T00:00:00Z',
  descriptor: { name, kind: 'dataproduct', description },
});

describe('LexicalIndex', () => {
  it('ranks by BM25F in one environment, exact identifiers first, and forgets removals', () => {
    const index = new LexicalIndex();
    index.upsert(
      instanceDocument(instance('urn:a', 'Invoices', 'Issued invoices and credit notes')),
    );
    index.upsert(
      instanceDocument(instance('urn:b', 'Payments', 'Payments received against invoices')),
    );
    index.upsert(instanceDocument(instance('urn:c', 'Shipments', 'Parcels and carriers')));
    index.upsert(instanceDocument(instance('urn:q', 'Invoices', 'Invoices in staging', 'staging')));

    const hits = index.search('invoices', { environment: 'production', limit: 10 });
    expect(hits.map((h) => h.key)).toEqual([
      instanceKey('production', 'urn:a'),
      instanceKey('production', 'urn:b'),
    ]);
    expect(hits[0]).toMatchObject({ exact: 'name', matchedTerms: ['invoice'] });
    expect(hits[1]?.exact).toBeUndefined();
    expect(index.search('urn:c', { environment: 'production', limit: 1 })[0]).toMatchObject({
      key: instanceKey('production', 'urn:c'),
      exact: 'urn',
    });
    expect(index.search('invoices', { environment: 'nowhere', limit: 10 })).toEqual([]);
    // No environment: one ranking over all of them; exact names of each environment first.
    const everywhere = index.search('invoices', { limit: 10 }).map((h) => h.key);
    expect(everywhere.slice(0, 2).sort()).toEqual(
      [instanceKey('production', 'urn:a'), instanceKey('staging', 'urn:q')].sort(),
    );
    expect(everywhere).toHaveLength(3);

    // A removed document leaves no trace; its slot serves the next one.
    expect(index.remove(instanceKey('production', 'urn:a'))).toBe(true);
    index.upsert(
      instanceDocument(instance('urn:d', 'Carrier Rates', 'Tariffs of parcel carriers')),
    );
    expect(
      index.search('invoices', { environment: 'production', limit: 10 }).map((h) => h.key),
    ).toEqual([instanceKey('production', 'urn:b')]);
    expect(
      index
        .search('carriers', { environment: 'production', limit: 10 })
        .map((h) => h.key)
        .sort(),
    ).toEqual([instanceKey('production', 'urn:c'), instanceKey('production', 'urn:d')]);
    // Scores of one search do not leak into the next.
    const again = index.search('carriers', { environment: 'production', limit: 10 });
    expect(again.map((h) => h.score)).toEqual(
      index.search('carriers', { environment: 'production', limit: 10 }).map((h) => h.score),
    );
    expect(index.size).toBe(4);
  });

  it('grows past its first capacity', () => {
    const index = new LexicalIndex();
    for (let i = 0; i < 300; i++)
      index.upsert(
        instanceDocument(instance(`urn:${i}`, `System ${i}`, i % 2 ? 'glacier ice' : 'sea level')),
      );
    expect(index.search('glacier', { environment: 'production', limit: 500 })).toHaveLength(150);
  });

  it('reads typos as the nearest indexed words, weighted lower, and says what was meant', () => {
    const index = new LexicalIndex();
    index.upsert(instanceDocument(instance('urn:o', 'Sales Orders', 'Orders placed by customers')));
    index.upsert(instanceDocument(instance('urn:p', 'Payroll', 'Monthly gross pay')));
    const plan = index.plan('ordres');
    expect(plan.terms).toEqual([
      { term: 'order', typed: 'ordres', via: 'typo', weight: TYPO_WEIGHT },
    ]);
    expect(plan.didYouMean).toBe('orders');
    const [hit] = index.search('ordres', { environment: 'production', limit: 5 });
    expect(hit).toMatchObject({ key: instanceKey('production', 'urn:o'), matchedTerms: ['order'] });
    expect(hit?.matches[0]?.via).toBe('typo');
    const typed = index.search('orders', { environment: 'production', limit: 5 })[0];
    expect(typed?.score).toBeGreaterThan(hit?.score as number);
    expect(index.plan('shipmnet payrol').didYouMean).toBe('shipmnet payroll');
    // Short words are never corrected: one edit makes most of them another word.
    expect(index.plan('payd').terms).toEqual([]);
    // A word spelled as indexed is taken as it is.
    expect(index.plan('orders').didYouMean).toBeUndefined();
    // A removed document's words are no longer corrections.
    index.remove(instanceKey('production', 'urn:p'));
    expect(index.plan('payrol').terms).toEqual([]);
  });

  it('folds text as the knowledge graph does and adds synonyms, weighted lower', () => {
    const index = new LexicalIndex();
    index.upsert(
      instanceDocument(instance('urn:c', 'Crème Straße', 'Monthly gross pay per employee')),
    );
    expect(index.search('creme strasse', { environment: 'production', limit: 5 })).toHaveLength(1);
    const plan = index.plan('wages', { synonyms: (w) => (w === 'wages' ? ['pay', 'salary'] : []) });
    expect(plan.terms).toEqual([
      { term: 'pay', typed: 'wages', via: 'synonym', weight: SYNONYM_WEIGHT },
    ]);
    const [hit] = index.search('wages', { environment: 'production', limit: 5, plan });
    expect(hit?.matches.map((m) => m.via)).toEqual(['synonym']);
  });
});

import { Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { canonicalLanguageTag } from './language-tag';
import { query } from './query';

describe('language tags', () => {
  it('take the conventional BCP 47 case', () => {
    expect(canonicalLanguageTag('en-us')).toBe('en-US');
    expect(canonicalLanguageTag('EN-US')).toBe('en-US');
    expect(canonicalLanguageTag('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(canonicalLanguageTag('de-ch-1996')).toBe('de-CH-1996');
    expect(canonicalLanguageTag('en')).toBe('en');
    // After a singleton (extension, private use) nothing is upper-cased.
    expect(canonicalLanguageTag('en-a-bbbb-cc')).toBe('en-a-bbbb-cc');
    expect(canonicalLanguageTag('x-klingon-tl')).toBe('x-klingon-tl');
    expect(canonicalLanguageTag('es-419')).toBe('es-419');
  });

  it('keep their case in SPARQL results although n3 stores them in lower case', async () => {
    const store = new Store(
      new Parser().parse('<urn:water> <urn:label> "Water"@en-US, "Wasser"@de-CH-1996 .'),
    );
    const results = await query('SELECT ?l WHERE { <urn:water> <urn:label> ?l }', store);
    if (!('results' in results)) throw new Error('expected SELECT results');
    expect(results.results.bindings.map((b) => b.l?.['xml:lang' as never]).sort()).toEqual([
      'de-CH-1996',
      'en-US',
    ]);
  });
});

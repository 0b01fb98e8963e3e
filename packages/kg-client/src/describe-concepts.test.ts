import type { SparqlBinding } from '@dcg/kg-schema';
import { describe, expect, it } from 'vitest';
import { buildDescribeQuery, collectDescriptions } from './describe-concepts';

const skos = 'http://www.w3.org/2004/02/skos/core#';
const rdfs = 'http://www.w3.org/2000/01/rdf-schema#';
const uri = (value: string) => ({ type: 'uri' as const, value });
const text = (value: string, lang?: string) =>
  lang
    ? { type: 'literal' as const, value, 'xml:lang': lang }
    : { type: 'literal' as const, value };

describe('buildDescribeQuery', () => {
  it('asks for every IRI in one VALUES block, with a language filter when asked', () => {
    const query = buildDescribeQuery(['https://ex.org/a', 'urn:x:b'], { lang: ['de', 'en-GB'] });
    expect(query).toContain('VALUES ?concept { <https://ex.org/a> <urn:x:b> }');
    expect(query).toContain(
      'langMatches(lang(?value), "de") || langMatches(lang(?value), "en-gb")',
    );
    expect(buildDescribeQuery(['https://ex.org/a'])).not.toContain('FILTER');
  });

  it('refuses anything that could escape an IRI or a string', () => {
    expect(() => buildDescribeQuery(['https://ex.org/a> } DROP ALL #'])).toThrow(/absolute IRI/);
    expect(() => buildDescribeQuery(['relative'])).toThrow(/absolute IRI/);
    expect(() => buildDescribeQuery(['https://ex.org/a'], { lang: 'en") || true || ("' })).toThrow(
      /language tag/,
    );
  });
});

describe('collectDescriptions', () => {
  const a = 'https://ex.org/a';
  const rows: SparqlBinding<string>[] = [
    { concept: uri(a), property: uri(`${rdfs}label`), value: text('water (rdfs)') },
    { concept: uri(a), property: uri(`${skos}prefLabel`), value: text('Wasser', 'de') },
    { concept: uri(a), property: uri(`${skos}prefLabel`), value: text('Water', 'en') },
    { concept: uri(a), property: uri(`${skos}prefLabel`), value: text('Eau', 'fr') },
    { concept: uri(a), property: uri(`${skos}altLabel`), value: text('H2O') },
    { concept: uri(a), property: uri(`${skos}altLabel`), value: text('H2O') },
    { concept: uri(a), property: uri(`${skos}definition`), value: text('A liquid.', 'en-GB') },
    { concept: uri(a), property: uri(`${skos}definition`), value: uri('https://ex.org/not-text') },
    { concept: uri(a), property: uri(`${skos}broader`), value: uri('https://ex.org/substance') },
    { concept: uri(a), property: uri(`${skos}broader`), value: text('not an IRI') },
    { concept: uri(a), inverse: uri(`${skos}broader`), value: uri('https://ex.org/sea-water') },
    { concept: uri(a), inverse: uri(`${skos}narrower`), value: uri('https://ex.org/liquid') },
    { concept: uri(a), inverse: uri(`${skos}related`), value: uri('https://ex.org/ice') },
    { concept: uri('https://ex.org/not-asked'), property: uri(`${rdfs}label`), value: text('x') },
  ];
  const results = {
    head: { vars: ['concept', 'property', 'value', 'inverse'] },
    results: { bindings: rows },
  };

  it('folds the rows into one description per IRI, in the order asked', () => {
    const [first, missing] = collectDescriptions([a, 'https://ex.org/missing'], results, {
      lang: ['en'],
    });
    expect(first).toEqual({
      iri: a,
      found: true,
      label: { value: 'Water', lang: 'en' },
      labels: [{ value: 'Water', lang: 'en' }, { value: 'water (rdfs)' }],
      altLabels: [{ value: 'H2O' }],
      definitions: [{ value: 'A liquid.', lang: 'en-GB' }],
      broader: ['https://ex.org/liquid', 'https://ex.org/substance'],
      narrower: ['https://ex.org/sea-water'],
      related: ['https://ex.org/ice'],
    });
    expect(missing).toEqual({
      iri: 'https://ex.org/missing',
      found: false,
      labels: [],
      altLabels: [],
      definitions: [],
      broader: [],
      narrower: [],
      related: [],
    });
  });

  it('orders texts by language preference, and keeps all languages without one', () => {
    const [german] = collectDescriptions([a], results, { lang: ['de', 'en'] });
    expect(german?.label).toEqual({ value: 'Wasser', lang: 'de' });
    expect(german?.labels.map((label) => label.value)).toEqual(['Wasser', 'Water', 'water (rdfs)']);
    const [all] = collectDescriptions([a], results);
    expect(all?.labels.map((label) => label.lang ?? '')).toEqual(['de', 'en', 'fr', '']);
  });
});

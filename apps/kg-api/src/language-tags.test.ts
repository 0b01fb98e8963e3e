import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessKgApp, inProcessKgApp } from './__fixtures__/in-process-app';

describe('language tags in answers', () => {
  let kg: InProcessKgApp;
  beforeAll(async () => {
    kg = await inProcessKgApp(
      '<https://ex.org/water> <http://www.w3.org/2004/02/skos/core#prefLabel> "Water"@en-US, "Wasser"@de-ch .',
    );
  });
  afterAll(() => kg.close());

  const sparql = (accept: string) =>
    kg.app.request('/v1/graph/sparql', {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query', accept },
      body: 'SELECT ?l WHERE { <https://ex.org/water> ?p ?l } ORDER BY ?l',
    });

  it('keep their case in SPARQL JSON and XML results', async () => {
    const json = (await (await sparql('application/sparql-results+json')).json()) as {
      results: { bindings: Array<{ l: { 'xml:lang': string } }> };
    };
    expect(json.results.bindings.map((b) => b.l['xml:lang'])).toEqual(['de-CH', 'en-US']);
    expect(await (await sparql('application/sparql-results+xml')).text()).toContain(
      'xml:lang="en-US"',
    );
  });

  it('keep their case in the graph download', async () => {
    const response = await kg.app.request('/v1/sources/vocab/graph/content', {
      headers: { accept: 'application/n-triples' },
    });
    const text = await response.text();
    expect(text).toContain('"Water"@en-US');
    expect(text).toContain('"Wasser"@de-CH');
  });
});

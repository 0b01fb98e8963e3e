import { Parser } from 'n3';
import { describe, expect, it } from 'vitest';
import { serviceDescription } from './service-description';

const SD = 'http://www.w3.org/ns/sparql-service-description#';

describe('serviceDescription', () => {
  it('describes the endpoint, SPARQL 1.1 Query, the results formats and the union default graph', () => {
    const quads = new Parser().parse(
      serviceDescription({ endpoint: 'https://kg.example.org/sparql' }),
    );
    const objects = (predicate: string) =>
      quads.filter((q) => q.predicate.value === predicate).map((q) => q.object.value);
    expect(objects(`${SD}endpoint`)).toEqual(['https://kg.example.org/sparql']);
    expect(objects(`${SD}supportedLanguage`)).toEqual([`${SD}SPARQL11Query`]);
    expect(objects(`${SD}feature`)).toEqual([`${SD}UnionDefaultGraph`]);
    expect(objects(`${SD}resultFormat`)).toEqual([
      'http://www.w3.org/ns/formats/SPARQL_Results_JSON',
      'http://www.w3.org/ns/formats/SPARQL_Results_XML',
      'http://www.w3.org/ns/formats/SPARQL_Results_CSV',
      'http://www.w3.org/ns/formats/SPARQL_Results_TSV',
    ]);
    expect(objects(`${SD}defaultGraph`)).toHaveLength(1);
  });

  it('percent-encodes a hostile endpoint IRI so that it adds no triple', () => {
    const endpoint = 'http://x/> . <urn:a> <urn:b> <urn:c';
    const quads = new Parser().parse(serviceDescription({ endpoint }));
    expect(quads.filter((q) => q.predicate.value === `${SD}endpoint`)[0]?.object.value).toBe(
      'http://x/%3E%20.%20%3Curn:a%3E%20%3Curn:b%3E%20%3Curn:c',
    );
    expect(quads.some((q) => q.subject.value === 'urn:a')).toBe(false);
  });
});

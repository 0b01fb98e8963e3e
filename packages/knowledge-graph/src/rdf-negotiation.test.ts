import { describe, expect, it } from 'vitest';
import { rdfFormatFromAccept } from './rdf-negotiation';

describe('rdfFormatFromAccept', () => {
  it('picks the best writable format by quality', () => {
    expect(rdfFormatFromAccept(undefined)).toBe('n-triples');
    expect(rdfFormatFromAccept('*/*')).toBe('n-triples');
    expect(rdfFormatFromAccept('text/turtle')).toBe('turtle');
    expect(rdfFormatFromAccept('text/turtle;q=0.5, application/trig')).toBe('trig');
    expect(rdfFormatFromAccept('application/ld+json, application/n-quads;q=0.1')).toBe('n-quads');
  });
  it('finds nothing when only unwritable formats are acceptable', () => {
    expect(rdfFormatFromAccept('application/ld+json')).toBeUndefined();
    expect(rdfFormatFromAccept('text/turtle;q=0')).toBeUndefined();
  });
});

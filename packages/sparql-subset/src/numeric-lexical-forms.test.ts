import { Parser, Store } from 'n3';
import { describe, expect, it } from 'vitest';
import { writtenNumericForms } from './numeric-lexical-forms';
import { query } from './query';

describe('writtenNumericForms', () => {
  it('maps what sparqljs produces back to the form written in the query', () => {
    const forms = writtenNumericForms('SELECT * { ?s ?p +5 . ?s ?q 1E3 . ?s ?r 7 }');
    expect(forms.get('5')).toBe('+5');
    expect(forms.get('1e3')).toBe('1E3');
    expect(forms.has('7')).toBe(false);
  });

  it('leaves a value alone when two written forms normalise to it', () => {
    expect(writtenNumericForms('SELECT * { ?s ?p +5 . ?s ?q 5 }').has('5')).toBe(false);
  });

  it('ignores digits inside strings, IRIs, comments and names', () => {
    const forms = writtenNumericForms(
      'PREFIX ex: <http://x/+5> SELECT * { ?s ex:p1 "+5" . ?s ?p2 ?o # +5\n }',
    );
    expect(forms.size).toBe(0);
  });

  it('lets a pattern with +5 match the literal "+5" it denotes', async () => {
    const store = new Store(
      new Parser().parse(
        '<urn:x> <urn:n> "+5"^^<http://www.w3.org/2001/XMLSchema#integer> . <urn:x> <urn:m> 5 .',
      ),
    );
    const results = await query('SELECT ?p { <urn:x> ?p +5 }', store);
    expect('results' in results && results.results.bindings).toEqual([
      { p: { type: 'uri', value: 'urn:n' } },
    ]);
  });
});

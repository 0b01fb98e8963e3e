import { Readable } from 'node:stream';
import type * as RDF from '@rdfjs/types';
import { SparqlXmlParser } from 'sparqlxml-parse';
import { describe, expect, it } from 'vitest';
import type { SparqlResults } from './evaluate';
import { chooseResultsFormat, serializeResults } from './results-formats';

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Every kind of term, with the characters each format must escape. */
const results: SparqlResults = {
  head: { vars: ['s', 'label', 'n', 'b'] },
  results: {
    bindings: [
      {
        s: { type: 'uri', value: 'http://example.org/a?x=1&y=<2>' },
        label: { type: 'literal', value: 'Tom & "Jerry", <x>\tand\nmore', 'xml:lang': 'en-US' },
        n: { type: 'literal', value: '42', datatype: `${XSD}integer` },
        b: { type: 'bnode', value: 'b0' },
      },
      { label: { type: 'literal', value: 'plain\r\\' } },
    ],
  },
};

describe('serializeResults', () => {
  it('writes SPARQL XML with escaped text and attributes, leaving unbound variables out', () => {
    expect(serializeResults(results, 'xml')).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sparql xmlns="http://www.w3.org/2005/sparql-results#">',
        '  <head>',
        '    <variable name="s"/>',
        '    <variable name="label"/>',
        '    <variable name="n"/>',
        '    <variable name="b"/>',
        '  </head>',
        '  <results>',
        '    <result>',
        '      <binding name="s"><uri>http://example.org/a?x=1&amp;y=&lt;2&gt;</uri></binding>',
        '      <binding name="label"><literal xml:lang="en-US">Tom &amp; &quot;Jerry&quot;, &lt;x&gt;\tand\nmore</literal></binding>',
        `      <binding name="n"><literal datatype="${XSD}integer">42</literal></binding>`,
        '      <binding name="b"><bnode>b0</bnode></binding>',
        '    </result>',
        '    <result>',
        '      <binding name="label"><literal>plain&#13;\\</literal></binding>',
        '    </result>',
        '  </results>',
        '</sparql>',
        '',
      ].join('\n'),
    );
  });

  it('writes XML that a SPARQL XML results parser reads back to the same terms', async () => {
    const rows: Record<string, RDF.Term>[] = [];
    const variables: string[] = [];
    await new Promise<void>((resolve, reject) => {
      new SparqlXmlParser()
        .parseXmlResultsStream(Readable.from([serializeResults(results, 'xml')]))
        .on('variables', (vars: RDF.Variable[]) => variables.push(...vars.map((v) => v.value)))
        .on('data', (row: Record<string, RDF.Term>) => rows.push(row))
        .on('error', reject)
        .on('end', resolve);
    });
    expect(variables).toEqual(['s', 'label', 'n', 'b']);
    expect(rows).toHaveLength(2);
    const first = rows[0] as Record<string, RDF.Term>;
    expect(first.s?.value).toBe('http://example.org/a?x=1&y=<2>');
    expect(first.label).toMatchObject({
      termType: 'Literal',
      value: 'Tom & "Jerry", <x>\tand\nmore',
      language: 'en-us',
    });
    expect((first.n as RDF.Literal).datatype.value).toBe(`${XSD}integer`);
    expect(first.b?.termType).toBe('BlankNode');
    expect(rows[1]?.label?.value).toBe('plain\r\\');
    const ask = await new SparqlXmlParser().parseXmlBooleanStream(
      Readable.from([serializeResults({ head: {}, boolean: true }, 'xml')]),
    );
    expect(ask).toBe(true);
  });

  it('writes XML 1.0-forbidden control characters as U+FFFD, so the document stays well formed', () => {
    const xml = serializeResults(
      {
        head: { vars: ['x'] },
        results: { bindings: [{ x: { type: 'literal', value: 'a\u0001b' } }] },
      },
      'xml',
    );
    expect(xml).toContain('<literal>a\uFFFDb</literal>');
  });

  it('writes an ASK answer as XML and JSON, and refuses CSV and TSV', () => {
    const ask: SparqlResults = { head: {}, boolean: false };
    expect(serializeResults(ask, 'xml')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n  <head/>\n  <boolean>false</boolean>\n</sparql>\n',
    );
    expect(serializeResults(ask, 'json')).toBe('{"head":{},"boolean":false}');
    expect(() => serializeResults(ask, 'csv')).toThrow(/JSON or XML/);
    expect(() => serializeResults(ask, 'tsv')).toThrow(/JSON or XML/);
  });

  it('writes CSV with plain values, RFC 4180 quoting and CRLF line ends', () => {
    expect(serializeResults(results, 'csv')).toBe(
      's,label,n,b\r\n' +
        'http://example.org/a?x=1&y=<2>,"Tom & ""Jerry"", <x>\tand\nmore",42,_:b0\r\n' +
        ',"plain\r\\",,\r\n',
    );
  });

  it('writes TSV with terms in SPARQL syntax, ?-headers and LF line ends', () => {
    expect(serializeResults(results, 'tsv')).toBe(
      '?s\t?label\t?n\t?b\n' +
        '<http://example.org/a?x=1&y=\\u003C2\\u003E>\t"Tom & \\"Jerry\\", <x>\\tand\\nmore"@en-US\t' +
        `"42"^^<${XSD}integer>\t_:b0\n` +
        '\t"plain\\r\\\\"\t\t\n',
    );
  });
});

describe('chooseResultsFormat', () => {
  it('follows Accept with q-values, the most specific range deciding', () => {
    expect(chooseResultsFormat({})).toBe('json');
    expect(chooseResultsFormat({ accept: 'application/sparql-results+xml' })).toBe('xml');
    expect(chooseResultsFormat({ accept: 'text/csv;q=0.5, text/tab-separated-values' })).toBe(
      'tsv',
    );
    expect(chooseResultsFormat({ accept: 'text/*;q=0.9, text/csv;q=0.1' })).toBe('tsv');
    expect(chooseResultsFormat({ accept: '*/*' })).toBe('json');
    expect(chooseResultsFormat({ accept: '*/*;q=0.1, application/xml' })).toBe('xml');
    expect(chooseResultsFormat({ accept: 'application/json' })).toBe('json');
    expect(chooseResultsFormat({ accept: 'application/sparql-results+json;q=0, */*' })).toBe('xml');
    expect(chooseResultsFormat({ accept: 'text/html' })).toBeUndefined();
    expect(chooseResultsFormat({ accept: 'text/csv', offered: ['json', 'xml'] })).toBeUndefined();
  });

  it('lets the format parameter win over Accept', () => {
    expect(chooseResultsFormat({ format: 'csv', accept: 'application/sparql-results+json' })).toBe(
      'csv',
    );
    expect(chooseResultsFormat({ format: 'TSV' })).toBe('tsv');
    expect(chooseResultsFormat({ format: 'html' })).toBeUndefined();
    expect(chooseResultsFormat({ format: 'csv', offered: ['json', 'xml'] })).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { parseRdf } from './parse-rdf';
import { rdfFormatFromFileName, rdfFormatFromMediaType } from './rdf-format';

const skos = 'http://www.w3.org/2004/02/skos/core#';
const RDF_XML = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE rdf:RDF [ <!ENTITY ex "https://ex.org/"> ]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:skos="${skos}">
  <skos:Concept rdf:about="&ex;water">
    <skos:prefLabel xml:lang="en">Water</skos:prefLabel>
    <skos:narrower>
      <skos:Concept rdf:about="&ex;river"><skos:prefLabel>River</skos:prefLabel></skos:Concept>
    </skos:narrower>
  </skos:Concept>
</rdf:RDF>
`;

describe('RDF/XML', () => {
  it('is named by application/rdf+xml and by .rdf, .owl and .xml', () => {
    expect(rdfFormatFromMediaType('application/rdf+xml; charset=utf-8')).toBe('rdf-xml');
    for (const name of ['thesaurus.rdf', 'ontology.OWL', 'dump.xml']) {
      expect(rdfFormatFromFileName(name)).toBe('rdf-xml');
    }
  });

  it('reads a SKOS document with DOCTYPE entities, in chunks', async () => {
    for (const chunkSize of [undefined, 7]) {
      const parsed = await parseRdf(RDF_XML, 'rdf-xml', chunkSize ? { chunkSize } : {});
      expect(parsed.success).toBe(true);
      if (!parsed.success) return;
      const triples = parsed.data.map(
        (q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`,
      );
      expect(triples).toContain(`https://ex.org/water ${skos}prefLabel Water`);
      expect(triples).toContain(`https://ex.org/water ${skos}narrower https://ex.org/river`);
      expect(parsed.data).toHaveLength(5);
      expect(parsed.data.every((q) => q.graph.termType === 'DefaultGraph')).toBe(true);
    }
  });

  it.each([
    ['a mismatched closing tag', RDF_XML.replace('</skos:prefLabel>', '</skos:altLabel>'), 5, 55],
    ['text outside the root', 'hello', 1, 5],
    [
      'a document that ends inside an element',
      RDF_XML.slice(0, RDF_XML.indexOf('</rdf:RDF>')),
      10,
      1,
    ],
    [
      'an element RDF/XML forbids',
      `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n  <rdf:li/>\n</rdf:RDF>`,
      2,
      11,
    ],
  ])(
    'reports %s with the line and column of the end of the offending tag',
    async (_name, text, line, column) => {
      const parsed = await parseRdf(text, 'rdf-xml');
      expect(parsed.success).toBe(false);
      if (parsed.success) return;
      expect(parsed.issues[0]).toMatchObject({ line, column });
      expect(parsed.issues[0]?.message.length).toBeGreaterThan(0);
    },
  );

  it('expands nested entities once, not exponentially (billion laughs)', async () => {
    const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    const entities = levels
      .map((name, i) =>
        i === 0
          ? `<!ENTITY a "${'lol'.repeat(10)}">`
          : `<!ENTITY ${name} "${`&${levels[i - 1]};`.repeat(10)}">`,
      )
      .join('');
    const parsed = await parseRdf(
      `<?xml version="1.0"?><!DOCTYPE rdf:RDF [${entities}]><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="urn:a"><rdf:value>&i;</rdf:value></rdf:Description></rdf:RDF>`,
      'rdf-xml',
    );
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data[0]?.object.value.length).toBeLessThan(1_000);
  });

  it('reads no file: an external entity is refused', async () => {
    const parsed = await parseRdf(
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="urn:a"><rdf:value>&x;</rdf:value></rdf:Description></rdf:RDF>`,
      'rdf-xml',
    );
    expect(parsed.success).toBe(false);
  });
});

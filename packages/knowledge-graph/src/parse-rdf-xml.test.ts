import { describe, expect, it } from 'vitest';
import { parseRdf } from './parse-rdf';
import { rdfFormatFromFileName, rdfFormatFromMediaType } from './rdf-format';
import { MAX_ENTITY_LENGTH } from './xml-entities';
import { DEFAULT_MAX_XML_DEPTH, entityExpansionBudget } from './xml-preflight';

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

  const withEntities = (declarations: string, value: string, about = 'urn:a') =>
    `<?xml version="1.0"?><!DOCTYPE rdf:RDF [${declarations}]><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="${about}"><rdf:value>${value}</rdf:value></rdf:Description></rdf:RDF>`;

  it('expands entity references inside entity values (XML 1.0 §4.5), in text and attributes', async () => {
    const parsed = await parseRdf(
      withEntities(
        `<!ENTITY ex "https://ex.org/"><!ENTITY water "&ex;water"><!ENTITY both '&water; &amp; &#x263A; "&ex;"'>`,
        '&both;',
        '&water;',
      ),
      'rdf-xml',
    );
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data[0]?.subject.value).toBe('https://ex.org/water');
    expect(parsed.data[0]?.object.value).toBe('https://ex.org/water & \u263A "https://ex.org/"');
  });

  it('refuses billion laughs at the bound on one entity, having done no exponential work', async () => {
    const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    const entities = levels
      .map((name, i) =>
        i === 0
          ? `<!ENTITY a "${'lol'.repeat(10)}">`
          : `<!ENTITY ${name} "${`&${levels[i - 1]};`.repeat(10)}">`,
      )
      .join('');
    const started = performance.now();
    const parsed = await parseRdf(withEntities(entities, '&i;'), 'rdf-xml');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(parsed).toMatchObject({
      success: false,
      exceeded: 'expansion',
      issues: [
        { message: `entity e expands to more than ${MAX_ENTITY_LENGTH} characters`, line: 1 },
      ],
    });
  });

  it('refuses many references to one large entity: all references together are bounded', async () => {
    const big = 'x'.repeat(MAX_ENTITY_LENGTH);
    const uses = '&big;'.repeat(Math.ceil(entityExpansionBudget(0) / MAX_ENTITY_LENGTH) + 1);
    const parsed = await parseRdf(withEntities(`<!ENTITY big "${big}">`, uses), 'rdf-xml');
    expect(parsed).toMatchObject({ success: false, exceeded: 'expansion' });
    // Within the budget, the same entity is expanded.
    const fewer = await parseRdf(withEntities(`<!ENTITY big "${big}">`, '&big;&big;'), 'rdf-xml');
    expect(fewer.success && fewer.data[0]?.object.value.length).toBe(2 * MAX_ENTITY_LENGTH);
  });

  it.each([
    ['recursion', '<!ENTITY a "x&b;"><!ENTITY b "&a;">', '&a;', /entity a refers to itself/],
    ['an undefined entity in a value', '<!ENTITY a "&nope;">', '&a;', /undefined entity &nope;/],
    ['markup in a value', '<!ENTITY a "<b>bold</b>">', '&a;', /markup .* not supported/],
    ['an undefined entity in the document', '', '&constructor;', /undefined entity &constructor;/],
  ])(
    'refuses %s with the position, as a syntax error',
    async (_name, declarations, value, message) => {
      const parsed = await parseRdf(withEntities(declarations, value), 'rdf-xml');
      expect(parsed.success).toBe(false);
      if (parsed.success) return;
      expect(parsed.exceeded).toBeUndefined();
      expect(parsed.issues[0]?.message).toMatch(message);
      expect(parsed.issues[0]?.line).toBe(1);
    },
  );

  it.each([
    [
      'elements',
      4_000,
      (d: number) =>
        `${'<ex:p><rdf:Description>'.repeat(d)}${'</rdf:Description></ex:p>'.repeat(d)}`,
    ],
    [
      'a literal',
      200_000,
      (d: number) => `<ex:p rdf:parseType="Literal">${'<b>'.repeat(d)}${'</b>'.repeat(d)}</ex:p>`,
    ],
  ])('refuses %s nested %i deep before parsing, in one linear pass', async (_name, depth, nest) => {
    const text = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="https://ex.org/">\n<rdf:Description rdf:about="urn:a">${nest(depth)}</rdf:Description></rdf:RDF>`;
    const started = performance.now();
    const parsed = await parseRdf(text, 'rdf-xml');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(parsed).toMatchObject({
      success: false,
      exceeded: 'depth',
      issues: [
        { message: `elements are nested more than ${DEFAULT_MAX_XML_DEPTH} levels deep`, line: 2 },
      ],
    });
    // The limit is an option: a shallow document is refused below it and read at it.
    const shallow = text.replace(nest(depth), nest(3));
    expect(await parseRdf(shallow, 'rdf-xml', { maxXmlDepth: 4 })).toMatchObject({
      success: false,
      exceeded: 'depth',
    });
    expect((await parseRdf(shallow, 'rdf-xml', { maxXmlDepth: 8 })).success).toBe(true);
  });

  it('counts no markup inside comments, CDATA, processing instructions or attribute values', async () => {
    const text = `<?xml version="1.0"?><?pi <a><b><c> ?><!DOCTYPE rdf:RDF [<!-- <!ENTITY no "x"> ]> --><!ENTITY e "ok">]><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="https://ex.org/"><!-- <a><b><c> --><rdf:Description rdf:about="urn:a" ex:note='a>b &amp; &e;'><rdf:value><![CDATA[<a><b><c>]]></rdf:value></rdf:Description></rdf:RDF>`;
    const parsed = await parseRdf(text, 'rdf-xml', { maxXmlDepth: 3 });
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data.map((q) => q.object.value).sort()).toEqual(['<a><b><c>', 'a>b & ok']);
  });

  it('reads no file: an external entity is refused', async () => {
    const parsed = await parseRdf(
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="urn:a"><rdf:value>&x;</rdf:value></rdf:Description></rdf:RDF>`,
      'rdf-xml',
    );
    expect(parsed.success).toBe(false);
  });
});

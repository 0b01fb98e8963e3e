import { describe, expect, it } from 'vitest';
import { parseRdf } from './parse-rdf';

const skos = 'http://www.w3.org/2004/02/skos/core#';

describe('parseRdf', () => {
  it('reads Turtle', async () => {
    const parsed = await parseRdf(
      `@prefix skos: <${skos}> .\n<https://ex.org/water> skos:prefLabel "Water"@en ; skos:altLabel "H2O" .`,
      'turtle',
    );
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data.map((q) => q.object.value).sort()).toEqual(['H2O', 'Water']);
  });

  it('reads N-Triples, and N-Quads and TriG into the default graph', async () => {
    const nt = await parseRdf('<urn:a> <urn:b> "c" .\n', 'n-triples');
    const nq = await parseRdf('<urn:a> <urn:b> "c" <urn:g> .\n', 'n-quads');
    const trig = await parseRdf('<urn:g> { <urn:a> <urn:b> "c" . }', 'trig');
    for (const parsed of [nt, nq, trig]) {
      expect(parsed.success).toBe(true);
      if (!parsed.success) continue;
      expect(parsed.data).toHaveLength(1);
      expect(parsed.data[0]?.graph.termType).toBe('DefaultGraph');
      expect(parsed.data[0]?.subject.value).toBe('urn:a');
    }
  });

  it('reads JSON-LD with an inline context', async () => {
    const doc = {
      '@context': { skos, label: `${skos}prefLabel` },
      '@id': 'https://ex.org/water',
      label: { '@value': 'Water', '@language': 'en' },
    };
    const parsed = await parseRdf(JSON.stringify(doc), 'json-ld');
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data).toHaveLength(1);
    expect(parsed.data[0]?.predicate.value).toBe(`${skos}prefLabel`);
  });

  it('locates a Turtle syntax error by line and column', async () => {
    const parsed = await parseRdf(
      '@prefix ex: <https://ex.org/> .\nex:a ex:b "ok" .\nex:c ex:d ] .\n',
      'turtle',
    );
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.issues[0]).toMatchObject({ line: 3, column: 11 });
  });

  it('locates a lexer error (bad character) by line and column', async () => {
    const parsed = await parseRdf('<urn:a> <urn:b> "c" .\n<urn:a> <urn:b> @@ .\n', 'n-triples');
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.issues[0]).toMatchObject({ line: 2, column: 17 });
  });

  it('locates an error past the first chunk of a large document', async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `<urn:s${i}> <urn:p> "value ${i}" .`);
    lines.push('<urn:x> <urn:p> "unterminated .');
    const parsed = await parseRdf(lines.join('\n'), 'n-triples');
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.issues[0]?.line).toBe(40_001);
    expect(parsed.issues[0]?.column).toBe(17);
  });

  it('locates a JSON syntax error in JSON-LD', async () => {
    const parsed = await parseRdf('{\n  "@id": "urn:a",\n  "x" 1\n}', 'json-ld');
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.issues[0]).toMatchObject({ line: 3, column: 7 });
  });

  it('refuses remote JSON-LD contexts instead of fetching them', async () => {
    const parsed = await parseRdf(
      JSON.stringify({ '@context': 'https://example.org/ctx.jsonld', '@id': 'urn:a', name: 'x' }),
      'json-ld',
    );
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.issues[0]?.message).toMatch(/remote JSON-LD context/);
  });
});

describe('parseRdf columns on indented lines', () => {
  it('counts the indentation', async () => {
    const parsed = await parseRdf(
      '@prefix ex: <https://ex.org/> .\nex:a ex:b ex:c ;\n  ex:d ] .',
      'turtle',
    );
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.issues[0]).toMatchObject({ line: 3, column: 8 });
  });
});

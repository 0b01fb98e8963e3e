// Documents that cost the RDF parsers much (issue 21): deep RDF/XML, and ordinary multi-MB
// uploads of each format. Shared by the tests and bench/upload-health.ts.

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const SKOS = 'http://www.w3.org/2004/02/skos/core#';

/** RDF/XML whose resources nest `depth` levels (two elements per level): 4,000 levels ≈ 220 KB. */
export function deepRdfXml(depth: number): string {
  return `<rdf:RDF xmlns:rdf="${RDF}" xmlns:skos="${SKOS}">\n<rdf:Description rdf:about="https://ex.org/root">${'<skos:narrower><rdf:Description>'.repeat(depth)}${'</rdf:Description></skos:narrower>'.repeat(depth)}</rdf:Description>\n</rdf:RDF>\n`;
}

/** RDF/XML with one XML literal nested `depth` elements deep. */
export function deepXmlLiteral(depth: number): string {
  return `<rdf:RDF xmlns:rdf="${RDF}" xmlns:skos="${SKOS}">\n<rdf:Description rdf:about="https://ex.org/root"><skos:note rdf:parseType="Literal">${'<b>'.repeat(depth)}x${'</b>'.repeat(depth)}</skos:note></rdf:Description>\n</rdf:RDF>\n`;
}

/** An ordinary SKOS dump in RDF/XML: `concepts` concepts of about 400 bytes (10,000 ≈ 4 MB). */
export function rdfXmlConcepts(concepts: number): string {
  const out = [`<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="${RDF}" xmlns:skos="${SKOS}">`];
  for (let i = 0; i < concepts; i++) {
    out.push(
      `  <skos:Concept rdf:about="https://ex.org/c${i}">\n    <skos:prefLabel xml:lang="en">Concept number ${i}</skos:prefLabel>\n    <skos:altLabel xml:lang="de">Begriff Nummer ${i}</skos:altLabel>\n    <skos:definition xml:lang="en">The concept that comes after concept ${i - 1} in this test vocabulary</skos:definition>\n    <skos:broader rdf:resource="https://ex.org/c${i >> 1}"/>\n  </skos:Concept>`,
    );
  }
  out.push('</rdf:RDF>\n');
  return out.join('\n');
}

/** Turtle of nested blank nodes, one statement a line: `lines` × about 160 bytes (10,000 ≈ 1.6 MB). */
export function turtleNestedBlankNodes(lines: number): string {
  const out = [`@prefix skos: <${SKOS}> .`];
  for (let i = 0; i < lines; i++) {
    out.push(
      `<https://ex.org/c${i}> skos:related [ skos:related [ skos:related [ skos:related [ skos:prefLabel "nested ${i}"@en ] ] ] ] .`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** Turtle of blank nodes nested `depth` deep on one line (50,000 ≈ 1.6 MB). */
export function turtleDeepBlankNodes(depth: number): string {
  return `@prefix skos: <${SKOS}> .\n<https://ex.org/root> skos:related ${'[ skos:related '.repeat(depth)}"deepest"${' ]'.repeat(depth)} .\n`;
}

/** N-Triples: `triples` lines of about 100 bytes (80,000 ≈ 8 MB). */
export function nTriples(triples: number): string {
  const out: string[] = [];
  for (let i = 0; i < triples; i++) {
    out.push(`<https://ex.org/c${i}> <${SKOS}prefLabel> "Concept number ${i} of many"@en .`);
  }
  return `${out.join('\n')}\n`;
}

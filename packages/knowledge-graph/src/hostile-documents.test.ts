import { stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { KnowledgeGraphError } from './errors';
import { KnowledgeBase } from './knowledge-base';
import { MemoryGraphPersistence } from './memory-graph-persistence.testkit';
import { rdfInWorker } from './node/rdf-worker';
import { DEFAULT_MAX_JSON_DEPTH, parseRdf } from './parse-rdf';
import { SearchConfigSchema } from './source-config';

const skos = 'http://www.w3.org/2004/02/skos/core#';
const convert = rdfInWorker();

/** Settles within `ms`, or fails the test instead of hanging it. */
function settles<T>(promise: Promise<T>, ms = 5_000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)),
  ]);
}

describe('documents that used to hang, crash or wipe', () => {
  it.each(['turtle', 'n-triples', 'n-quads', 'trig', 'rdf-xml'] as const)(
    'an empty %s document settles with no quads, in this thread and in a worker',
    async (format) => {
      expect(await settles(parseRdf('', format))).toEqual({ success: true, data: [] });
      expect(await settles(parseRdf('', format, { convert }))).toEqual({ success: true, data: [] });
    },
  );

  it.each([
    ['arrays 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    [
      'node objects 10,000 deep',
      `${'{"@id":"urn:a","urn:p":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
    ],
  ])('refuses JSON-LD with %s, with the position, before parsing', async (_name, text) => {
    const parsed = await settles(parseRdf(text, 'json-ld', { convert }));
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.issues[0]?.message).toMatch(`nested more than ${DEFAULT_MAX_JSON_DEPTH} levels`);
    expect(parsed.issues[0]?.line).toBe(1);
    expect(parsed.issues[0]?.column).toBeGreaterThan(DEFAULT_MAX_JSON_DEPTH);
  });

  it('counts brackets inside strings as text, and the depth limit is configurable', async () => {
    const text = JSON.stringify({ '@id': 'urn:a', [`${skos}prefLabel`]: '[[[[{{{{\\"[[[' });
    expect((await parseRdf(text, 'json-ld', { maxJsonDepth: 1, convert })).success).toBe(true);
    const nested = JSON.stringify({ '@id': 'urn:a', 'urn:p': { '@id': 'urn:b', 'urn:q': 'x' } });
    expect((await parseRdf(nested, 'json-ld', { maxJsonDepth: 1, convert })).success).toBe(false);
    expect((await parseRdf(nested, 'json-ld', { maxJsonDepth: 2, convert })).success).toBe(true);
  });

  it('converts JSON-LD in a worker: quads, named graphs to the default graph, syntax errors located', async () => {
    const parsed = await parseRdf(
      JSON.stringify({
        '@context': { skos },
        '@id': 'https://ex.org/water',
        'skos:prefLabel': { '@value': 'Wässer', '@language': 'de' },
        'skos:broader': { '@id': '_:b', 'skos:prefLabel': 'Element' },
      }),
      'json-ld',
      { convert },
    );
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data.map((q) => q.object.value).sort()).toContain('Wässer');
    expect(parsed.data.every((q) => q.graph.termType === 'DefaultGraph')).toBe(true);
    expect(parsed.data).toHaveLength(3);
    const broken = await parseRdf('{\n  "@id": "urn:a",\n  "urn:p": [1, 2\n}', 'json-ld', {
      convert,
    });
    expect(broken).toMatchObject({ success: false, issues: [{ line: 4, column: 1 }] });
  });

  it('refuses a document that needs more heap than the worker may take, and the process lives on', async () => {
    const nodes = Array.from({ length: 5_000 }, (_, i) => ({
      '@id': `https://ex.org/c${i}`,
      [`${skos}prefLabel`]: `Concept ${i}`,
    }));
    const parsed = await parseRdf(JSON.stringify({ '@graph': nodes }), 'json-ld', {
      convert: rdfInWorker({ maxHeapMb: 4 }),
    });
    expect(parsed).toMatchObject({
      success: false,
      exceeded: 'memory',
      issues: [{ message: 'the JSON-LD document needs more than 4 MB to convert' }],
    });
  });

  it('stops a conversion that takes longer than timeoutMs, and the next document gets its turn', async () => {
    // 150,000 concepts (14.5 MB) took 13 s to convert at load average 8; a worker starts in 0.3 s
    // (1 s under heavy load).
    const nodes = Array.from({ length: 150_000 }, (_, i) => ({
      '@id': `https://ex.org/c${i}`,
      [`${skos}prefLabel`]: `Concept ${i}`,
    }));
    const convert = rdfInWorker({ timeoutMs: 2_500, maxWorkers: 1 });
    const started = Date.now();
    const slow = parseRdf(JSON.stringify({ '@graph': nodes }), 'json-ld', { convert });
    const next = parseRdf(
      JSON.stringify({ '@id': 'https://ex.org/next', [`${skos}prefLabel`]: 'Next' }),
      'json-ld',
      { convert },
    );
    expect(await slow).toMatchObject({
      success: false,
      exceeded: 'time',
      issues: [{ message: 'the JSON-LD document takes longer than 2500 ms to convert' }],
    });
    expect(Date.now() - started).toBeLessThan(6_000);
    const converted = await next;
    expect(converted.success && converted.data.map((q) => q.object.value)).toEqual(['Next']);
  });

  it('converts documents arriving at once one after the other (maxWorkers 1), each correctly', async () => {
    const convert = rdfInWorker({ maxWorkers: 1 });
    const docs = Array.from({ length: 4 }, (_, i) =>
      JSON.stringify({ '@id': `https://ex.org/d${i}`, [`${skos}prefLabel`]: `Doc ${i}` }),
    );
    const results = await Promise.all(docs.map((doc) => parseRdf(doc, 'json-ld', { convert })));
    expect(results.map((r) => r.success && r.data[0]?.object.value)).toEqual([
      'Doc 0',
      'Doc 1',
      'Doc 2',
      'Doc 3',
    ]);
  });

  it('a graph that yields no triples replaces nothing unless emptying is asked for', async () => {
    const kb = await KnowledgeBase.open({
      sources: [
        {
          id: 'a',
          name: 'a',
          modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
        },
      ],
      search: SearchConfigSchema.parse({}),
      persistence: new MemoryGraphPersistence(),
    });
    const one = await parseRdf('<urn:a> <urn:b> "c" .', 'n-triples');
    if (!one.success) throw new Error('expected to parse');
    await kb.replaceGraph('a', one.data);
    for (const text of ['null', '{}', '{"port": 8080, "debug": true}']) {
      const parsed = await parseRdf(text, 'json-ld', { convert });
      if (!parsed.success) throw new Error(`expected ${text} to parse`);
      const error = await kb.replaceGraph('a', parsed.data).catch((e: unknown) => e);
      expect(KnowledgeGraphError.isInstance(error) && error.code).toBe('empty_graph');
      expect(kb.graphInfo('a').triples).toBe(1);
    }
    await kb.replaceGraph('a', [], { allowEmpty: true });
    expect(kb.graphInfo('a').triples).toBe(0);
  });
});

describe('installing a large graph', () => {
  it('lets I/O through while the store and the search index are built', async () => {
    const kb = await KnowledgeBase.open({
      sources: [
        {
          id: 'a',
          name: 'a',
          modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
        },
      ],
      search: SearchConfigSchema.parse({}),
      persistence: new MemoryGraphPersistence(),
    });
    const parsed = await parseRdf(
      Array.from(
        { length: 30_000 },
        (_, i) => `<https://ex.org/c${i}> <${skos}prefLabel> "concept number ${i}"@en .`,
      ).join('\n'),
      'n-triples',
    );
    if (!parsed.success) throw new Error('expected to parse');
    let replacedAt = 0;
    const replaced = kb.replaceGraph('a', parsed.data).then(() => {
      replacedAt = performance.now();
    });
    let ioDoneAt = 0;
    for (let i = 0; i < 3; i++) {
      await stat(import.meta.filename);
      ioDoneAt = performance.now();
    }
    await replaced;
    expect(ioDoneAt).toBeLessThan(replacedAt);
    expect(kb.search('concept number 29999', { offset: 0, limit: 1 }).results).toEqual([
      'https://ex.org/c29999',
    ]);
  });
});

describe('parsing off the main thread (rdfInWorker)', () => {
  const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
  const xml = (body: string, doctype = '') =>
    `<?xml version="1.0"?>\n${doctype}<rdf:RDF xmlns:rdf="${RDF}" xmlns:skos="${skos}">\n${body}\n</rdf:RDF>\n`;
  const longTurtle = `<urn:a> <urn:p> ${'[ <urn:p> '.repeat(30_000)}"x"${' ]'.repeat(30_000)} .\n`;
  const documents: Array<[string, string, Parameters<typeof parseRdf>[1]]> = [
    [
      'RDF/XML with nested entities',
      xml(
        '<skos:Concept rdf:about="&water;"><skos:prefLabel xml:lang="en">&label;</skos:prefLabel></skos:Concept>',
        '<!DOCTYPE rdf:RDF [<!ENTITY ex "https://ex.org/"><!ENTITY water "&ex;water"><!ENTITY label "Water &amp; ice">]>\n',
      ),
      'rdf-xml',
    ],
    ['RDF/XML with a mismatched tag', xml('  <skos:Concept>\n  </skos:Collection>'), 'rdf-xml'],
    ['truncated RDF/XML', xml('<skos:Concept rdf:about="urn:a">').slice(0, -12), 'rdf-xml'],
    ['Turtle on one long line', longTurtle, 'turtle'],
    ['broken Turtle on one long line', longTurtle.replace('"x"', '"x'), 'turtle'],
    [
      'broken Turtle on a long line after others',
      `<urn:a> <urn:b> "c" .\n  ${longTurtle.replace(' ]', ' ] ]')}`,
      'turtle',
    ],
  ];

  it.each(documents)(
    '%s: the same quads, or the same located error, as in this thread',
    async (_name, text, format) => {
      const inThread = await parseRdf(text, format);
      const inWorker = await parseRdf(text, format, { convert });
      expect(inWorker.success).toBe(inThread.success);
      if (inThread.success && inWorker.success) {
        const show = (quads: typeof inThread.data) =>
          quads.map(
            (q) =>
              `${q.subject.termType === 'BlankNode' ? '_' : q.subject.value} ${q.predicate.value} ${q.object.termType === 'BlankNode' ? '_' : q.object.value}`,
          );
        expect(show(inWorker.data)).toEqual(show(inThread.data));
        expect(inWorker.data.length).toBeGreaterThan(0);
      } else {
        // Blank node labels count per thread.
        const shown = (result: typeof inThread) =>
          JSON.stringify(result).replace(/_:n3-\d+/g, '_:b');
        expect(shown(inWorker)).toEqual(shown(inThread));
      }
    },
  );

  it('refuses RDF/XML nested 50,000 deep before any worker starts, in well under a second of work', async () => {
    const depth = 50_000;
    const text = xml(
      `<rdf:Description rdf:about="urn:a">${'<skos:related><rdf:Description>'.repeat(depth)}${'</rdf:Description></skos:related>'.repeat(depth)}</rdf:Description>`,
    );
    const started = performance.now();
    const parsed = await settles(parseRdf(text, 'rdf-xml', { convert }));
    expect(parsed).toMatchObject({ success: false, exceeded: 'depth', issues: [{ line: 3 }] });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deepRdfXml,
  deepXmlLiteral,
  nTriples,
  rdfXmlConcepts,
  turtleDeepBlankNodes,
  turtleNestedBlankNodes,
} from './__fixtures__/costly-documents';
import { TURTLE } from './__fixtures__/test-servers';
import { startVocabKgApi, type VocabKgApi, WRITER_KEY } from './__fixtures__/vocab-kg-api';

// kg-api runs in this process: its event loop is the test's. The parsers used to hold it for
// seconds: 4,000 levels of RDF/XML 0.9–3.3 s, 8,000 levels 42 s, 50,000 never ended; 1 MiB
// chunks of RDF/XML about 1 s each (a quarter of a 4 MB upload), a long line of Turtle as long as
// it took. The bound is generous for a loaded 2-core machine, where the main thread may wait
// 100–700 ms for a core while a worker parses (measured at load average 9–13): 750 ms, or a
// tenth of the upload's time when the load makes that longer (the old code's stalls grow with
// the load as much: 24–35% of the upload at load 9; it fails this test).
const MAX_STALL_MS = 750;
const MAX_STALL_SHARE = 0.1;

interface Problem {
  type?: string;
  detail?: string;
  line?: number;
  column?: number;
}

/** Runs `work` and answers its result with the longest event-loop stall meanwhile (ms). */
async function stallDuring<T>(work: () => Promise<T>): Promise<{ result: T; maxStallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  try {
    const result = await work();
    return { result, maxStallMs: delay.max / 1e6 };
  } finally {
    delay.disable();
  }
}

describe('uploads parse without holding the event loop (issue 21)', () => {
  let kg: VocabKgApi;
  const triples = async () =>
    ((await (await fetch(`${kg.api.url}/v1/sources/vocab/graph`)).json()) as { triples: number })
      .triples;
  const graphStorePut = (body: string, contentType: string) =>
    fetch(`${kg.api.url}/v1/graph/store?graph=urn:dcg:source:vocab`, {
      method: 'PUT',
      headers: { 'content-type': contentType, authorization: `Bearer ${WRITER_KEY}` },
      body,
    });

  beforeAll(async () => {
    kg = await startVocabKgApi({ prefix: 'kg-upload-loop-' });
    expect((await kg.upload(TURTLE, 'text/turtle')).status).toBe(200);
  });
  afterAll(() => kg?.close());

  describe('deep RDF/XML is refused before parsing (422), on both upload routes', () => {
    it.each([
      ['nested 4,000 deep', deepRdfXml(4_000)],
      ['nested 8,000 deep', deepRdfXml(8_000)],
      ['nested 50,000 deep', deepRdfXml(50_000)],
      ['a literal nested 200,000 deep', deepXmlLiteral(200_000)],
    ])('%s', async (_name, body) => {
      for (const put of [
        () => kg.upload(body, 'application/rdf+xml'),
        () => graphStorePut(body, 'application/rdf+xml'),
      ]) {
        const { result: response, maxStallMs } = await stallDuring(put);
        expect(response.status).toBe(422);
        const problem = (await response.json()) as Problem;
        expect(problem).toMatchObject({ type: 'urn:dcg:kg:document_too_costly', line: 2 });
        expect(problem.detail).toMatch(
          /elements are nested more than 128 levels deep \(ingestion\.maxRdfXmlDepth\)\. Nothing was changed\.$/,
        );
        expect(maxStallMs).toBeLessThan(MAX_STALL_MS);
      }
      expect(await triples()).toBe(6);
    });
  });

  // Each is parsed while /health is asked every 10 ms; it must keep answering.
  it.each([
    ['RDF/XML, 3.8 MB', () => rdfXmlConcepts(10_000), 'application/rdf+xml', 50_000],
    [
      'Turtle, 2 MB of nested blank nodes',
      () => turtleNestedBlankNodes(16_000),
      'text/turtle',
      80_000,
    ],
    [
      'Turtle, blank nodes 60,000 deep on one line',
      () => turtleDeepBlankNodes(60_000),
      'text/turtle',
      60_001,
    ],
    ['N-Triples, 8.6 MB', () => nTriples(80_000), 'application/n-triples', 80_000],
  ])('%s: /health answers throughout', async (_name, make, contentType, expected) => {
    const body = make();
    let uploading = true;
    let answers = 0;
    const health = (async () => {
      while (uploading) {
        expect((await fetch(`${kg.api.url}/health`)).status).toBe(200);
        answers++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const started = performance.now();
    const { result: response, maxStallMs } = await stallDuring(() => kg.upload(body, contentType));
    const uploadMs = performance.now() - started;
    uploading = false;
    await health;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { triples: number }).triples).toBe(expected);
    expect(answers).toBeGreaterThan(2);
    expect(maxStallMs).toBeLessThan(Math.max(MAX_STALL_MS, MAX_STALL_SHARE * uploadMs));
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { TURTLE } from './__fixtures__/test-servers';
import { startVocabKgApi, type VocabKgApi } from './__fixtures__/vocab-kg-api';

const SKOS_LABEL = 'http://www.w3.org/2004/02/skos/core#prefLabel';

/** A valid JSON-LD document of `count` concepts (about 97 bytes each). */
const concepts = (count: number) =>
  JSON.stringify({
    '@graph': Array.from({ length: count }, (_, i) => ({
      '@id': `https://ex.org/c${i}`,
      [SKOS_LABEL]: `Concept ${i}`,
    })),
  });

async function triples(kg: VocabKgApi): Promise<number> {
  const info = await fetch(`${kg.api.url}/v1/sources/vocab/graph`);
  return ((await info.json()) as { triples: number }).triples;
}

interface Problem {
  type?: string;
  status: number;
  detail?: string;
}

describe('a JSON-LD upload over a conversion limit is refused with 422, and the service goes on', () => {
  const servers: VocabKgApi[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  // 150,000 concepts (14.5 MB) took 13 s to convert at load average 8; a worker starts in 0.3 s
  // (1 s under heavy load), so a small document still converts within 2.5 s.
  it.each([
    [
      'takes longer than ingestion.jsonLdTimeoutMs: its worker is stopped',
      { jsonLdTimeoutMs: 2_500 },
      'the JSON-LD document takes longer than 2500 ms to convert. Nothing was changed.',
    ],
    [
      'needs more heap than ingestion.jsonLdWorkerHeapMb',
      { jsonLdWorkerHeapMb: 16 },
      'the JSON-LD document needs more than 16 MB to convert. Nothing was changed.',
    ],
  ])('%s', async (_, ingestion, detail) => {
    const kg = await startVocabKgApi({ prefix: 'kg-json-ld-limits-', config: { ingestion } });
    servers.push(kg);
    expect((await kg.upload(TURTLE, 'text/turtle')).status).toBe(200);
    const refused = await kg.upload(concepts(150_000), 'application/ld+json');
    expect(refused.status).toBe(422);
    expect((await refused.json()) as Problem).toMatchObject({
      type: 'urn:dcg:kg:document_too_costly',
      detail,
    });
    // Nothing changed (the Turtle's 6 triples), and the next upload is served.
    expect(await triples(kg)).toBe(6);
    expect((await kg.upload(concepts(3), 'application/ld+json')).status).toBe(200);
    expect(await triples(kg)).toBe(3);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { isVirtuosoAvailable, startVirtuoso } from '@dcg/testing-virtuoso';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningKgApi, startKgApi } from './server';

const availability = await isVirtuosoAvailable();
if (!availability.available) {
  console.warn(`SKIPPED: Virtuoso SERVICE into kg-api (${availability.reason})`);
}
const WRITER = 'writer-key-0123456789abcdef';
const TURTLE = `@prefix ex: <https://ex.org/> .
ex:water ex:label "Water"@en ; ex:rank 1 .
ex:river ex:label "River & \\"stream\\""@en ; ex:rank 2 .
`;

// Virtuoso's SERVICE reads the remote answer as SPARQL XML: before kg-api offered XML, this failed.
describe.skipIf(!availability.available)(
  'a Virtuoso federated query through SERVICE into kg-api',
  () => {
    let dir: string;
    let api: RunningKgApi;
    let virtuoso: Awaited<ReturnType<typeof startVirtuoso>>;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'kg-service-'));
      api = await startKgApi({
        dataDir: dir,
        logger: createLogger('test', { level: 'silent' }),
        config: {
          sources: [
            {
              id: 'vocab',
              name: 'vocab',
              modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
            },
          ],
          auth: { apiKeys: [{ name: 'ci', key: WRITER }] },
        },
      });
      const put = await fetch(`${api.url}/v1/sources/vocab/graph`, {
        method: 'PUT',
        headers: { 'content-type': 'text/turtle', authorization: `Bearer ${WRITER}` },
        body: TURTLE,
      });
      expect(put.status).toBe(200);
      virtuoso = await startVirtuoso();
      await virtuoso.sql(
        'GRANT SPARQL_LOAD_SERVICE_DATA TO "SPARQL"; GRANT SPARQL_SPONGE TO "SPARQL";',
      );
    }, 120_000);
    afterAll(async () => {
      await api?.close();
      await virtuoso?.stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('returns the rows kg-api holds', async () => {
      const query = `SELECT ?s ?label WHERE { SERVICE <${api.url}/v1/graph/sparql> { ?s <https://ex.org/label> ?label } } ORDER BY ?s`;
      const response = await fetch(`${virtuoso.sparqlUrl}?query=${encodeURIComponent(query)}`, {
        headers: { accept: 'application/sparql-results+json' },
      });
      const text = await response.text();
      expect(response.status, text).toBe(200);
      const body = JSON.parse(text) as {
        results: { bindings: Array<Record<string, { value: string; 'xml:lang'?: string }>> };
      };
      expect(
        body.results.bindings.map((row) => [
          row.s?.value,
          row.label?.value,
          row.label?.['xml:lang'],
        ]),
      ).toEqual([
        ['https://ex.org/river', 'River & "stream"', 'en'],
        ['https://ex.org/water', 'Water', 'en'],
      ]);
    }, 60_000);
  },
);

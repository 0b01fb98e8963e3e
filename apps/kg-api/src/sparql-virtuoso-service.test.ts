import { isVirtuosoAvailable, startVirtuoso } from '@dcg/testing-virtuoso';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVocabKgApi, type VocabKgApi } from './__fixtures__/vocab-kg-api';
import type { RunningKgApi } from './server';

const availability = await isVirtuosoAvailable();
if (!availability.available) {
  console.warn(`SKIPPED: Virtuoso SERVICE into kg-api (${availability.reason})`);
}
const TURTLE = `@prefix ex: <https://ex.org/> .
ex:water ex:label "Water"@en ; ex:rank 1 .
ex:river ex:label "River & \\"stream\\""@en ; ex:rank 2 .
`;

// Virtuoso's SERVICE reads the remote answer as SPARQL XML: before kg-api offered XML, this failed.
describe.skipIf(!availability.available)(
  'a Virtuoso federated query through SERVICE into kg-api',
  () => {
    let kg: VocabKgApi;
    let api: RunningKgApi;
    let virtuoso: Awaited<ReturnType<typeof startVirtuoso>>;

    beforeAll(async () => {
      kg = await startVocabKgApi({ prefix: 'kg-service-' });
      api = kg.api;
      const put = await kg.upload(TURTLE);
      expect(put.status).toBe(200);
      virtuoso = await startVirtuoso();
      await virtuoso.sql(
        'GRANT SPARQL_LOAD_SERVICE_DATA TO "SPARQL"; GRANT SPARQL_SPONGE TO "SPARQL";',
      );
    }, 120_000);
    afterAll(async () => {
      await kg?.close();
      await virtuoso?.stop();
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

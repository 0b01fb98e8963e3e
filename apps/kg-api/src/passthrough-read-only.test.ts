import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { isVirtuosoAvailable, startVirtuoso } from '@dcg/testing-virtuoso';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './__fixtures__/test-servers';
import { type RunningKgApi, startKgApi } from './server';

const GRAPH = 'https://ex.org/graph';
const availability = await isVirtuosoAvailable();
if (!availability.available) {
  console.warn(`SKIPPED: read-only passthrough against Virtuoso (${availability.reason})`);
}

const UPDATES = [
  `INSERT DATA { GRAPH <${GRAPH}> { <https://ex.org/evil> <https://ex.org/p> "inserted" } }`,
  `DELETE WHERE { GRAPH <${GRAPH}> { ?s ?p ?o } }`,
  'LOAD <http://127.0.0.1:1/internal-secret>',
  `CLEAR GRAPH <${GRAPH}>`,
  `DROP SILENT GRAPH <${GRAPH}>`,
  `PREFIX ex: <https://ex.org/>\nSELECT * { ?s ?p ?o } ;\nwith <${GRAPH}> delete { ?s ?p ?o } where { ?s ?p ?o }`,
];

describe('passthrough is read-only', () => {
  const dirs: string[] = [];
  let api: RunningKgApi;
  let virtuoso: Awaited<ReturnType<typeof startVirtuoso>> | undefined;
  // A real upstream that records every request that reaches it.
  const received: string[] = [];
  let recorder: Awaited<ReturnType<typeof startTestServer>>;

  beforeAll(async () => {
    recorder = await startTestServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push(`${req.method} ${req.url} ${body}`);
        res.writeHead(200, { 'content-type': 'application/sparql-results+json' });
        res.end(JSON.stringify({ head: { vars: [] }, results: { bindings: [] } }));
      });
    });
    if (availability.available) {
      virtuoso = await startVirtuoso();
      await virtuoso.load('<https://ex.org/water> <https://ex.org/p> "Water" .\n', GRAPH);
      // An upstream that permits updates through its SPARQL endpoint, as in the report.
      await virtuoso.sql('GRANT SPARQL_UPDATE TO "SPARQL";');
    }
    const dir = await mkdtemp(join(tmpdir(), 'kg-ro-'));
    dirs.push(dir);
    const passthrough = { ingestion: { enabled: false }, passthrough: { enabled: true } };
    api = await startKgApi({
      dataDir: dir,
      logger: createLogger('test', { level: 'silent' }),
      config: {
        sources: [
          { id: 'recorder', name: 'recorder', baseUrl: recorder.url, modes: passthrough },
          ...(virtuoso
            ? [
                {
                  id: 'virtuoso',
                  name: 'virtuoso',
                  sparqlEndpoint: virtuoso.sparqlUrl,
                  searchEndpoint: `${virtuoso.sparqlUrl}/no-search`,
                  defaultGraphUri: GRAPH,
                  modes: passthrough,
                },
              ]
            : []),
        ],
      },
    });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await recorder?.close();
    await virtuoso?.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function expectRefused(response: Response) {
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { type: string; problems: Array<{ code: string }> };
    // The same problem as the internal endpoint gives an update.
    expect(problem.type).toBe('urn:dcg:kg:query_rejected');
    expect(problem.problems[0]?.code).toBe('UPDATE_NOT_SUPPORTED');
  }

  it('refuses every update form before anything reaches the upstream', async () => {
    const url = `${api.url}/passthrough/recorder/v1/graph/sparql`;
    for (const update of UPDATES) {
      await expectRefused(
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/sparql-query' },
          body: update,
        }),
      );
      await expectRefused(
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ query: update }).toString(),
        }),
      );
      await expectRefused(await fetch(`${url}?query=${encodeURIComponent(update)}`));
      await expectRefused(
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ update }).toString(),
        }),
      );
      await expectRefused(
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/sparql-update' },
          body: update,
        }),
      );
      await expectRefused(await fetch(`${url}?update=${encodeURIComponent(update)}`));
    }
    expect(received).toEqual([]);
    // A query still goes through, with names and strings that look like update keywords.
    const query = 'SELECT ?insert { ?insert <https://ex.org/load> "DELETE DATA" }';
    const ok = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: query,
    });
    expect(ok.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toContain(encodeURIComponent('"DELETE DATA"').replaceAll('%20', '+'));
  });

  it.skipIf(!availability.available)(
    'an upstream Virtuoso that permits updates is left unchanged',
    async () => {
      if (!virtuoso) return;
      const ask = async (query: string) => {
        const response = await fetch(`${virtuoso?.sparqlUrl}?query=${encodeURIComponent(query)}`, {
          headers: { accept: 'application/sparql-results+json' },
        });
        return ((await response.json()) as { boolean: boolean }).boolean;
      };
      // The upstream really executes updates sent to it directly.
      const direct = await fetch(virtuoso.sparqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          query: `INSERT DATA { GRAPH <${GRAPH}> { <https://ex.org/direct> <https://ex.org/p> "direct" } }`,
        }).toString(),
      });
      expect(direct.status).toBe(200);
      expect(await ask(`ASK { GRAPH <${GRAPH}> { <https://ex.org/direct> ?p ?o } }`)).toBe(true);

      for (const update of UPDATES) {
        await expectRefused(
          await fetch(`${api.url}/passthrough/virtuoso/v1/graph/sparql`, {
            method: 'POST',
            headers: { 'content-type': 'application/sparql-query' },
            body: update,
          }),
        );
      }
      expect(await ask(`ASK { GRAPH <${GRAPH}> { <https://ex.org/evil> ?p ?o } }`)).toBe(false);
      expect(await ask(`ASK { GRAPH <${GRAPH}> { <https://ex.org/water> ?p "Water" } }`)).toBe(
        true,
      );
    },
  );
});

import { isVirtuosoAvailable, type RunningVirtuoso, startVirtuoso } from '@dcg/testing-virtuoso';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApp } from './__fixtures__/serve-app';
import { gov, vocabulary } from './__fixtures__/vocabulary';
import { createKgClient, type KgClient } from './create-kg-client';
import { toPlainRows } from './plain-values';

// describe() and the typed bindings against a real third-party SPARQL engine. Virtuoso 7.2.5
// hangs on a POST with Content-Type application/sparql-query, so a small shim (what kg-api's
// passthrough does) forwards the client's request to it as a form POST.

const availability = await isVirtuosoAvailable();
if (!availability.available)
  console.warn(`SKIPPED: kg-client against Virtuoso (${availability.reason})`);

const graph = 'https://example.org/graph/skos';

describe.skipIf(!availability.available)('kg-client against Virtuoso', () => {
  let virtuoso: RunningVirtuoso;
  let shim: { url: string; close: () => Promise<void> };
  let client: KgClient;

  beforeAll(async () => {
    virtuoso = await startVirtuoso();
    await virtuoso.load(vocabulary, graph);
    const app = new Hono();
    app.post('/passthrough/virtuoso/v1/graph/sparql', async (c) => {
      const upstream = await fetch(virtuoso.sparqlUrl, {
        method: 'POST',
        body: new URLSearchParams({ query: await c.req.text(), 'default-graph-uri': graph }),
        headers: { accept: 'application/sparql-results+json' },
      });
      return new Response(await upstream.text(), {
        status: upstream.status,
        headers: { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' },
      });
    });
    shim = await serveApp(app);
    client = createKgClient({ baseUrl: shim.url, timeoutMs: 10_000 });
  });

  afterAll(async () => {
    await shim?.close();
    await virtuoso?.stop();
  });

  it('describes concepts in one query: labels, definitions, both directions of links', async () => {
    const source = client.source('virtuoso');
    const [product, port, workload, contract, unknown] = await source.describe(
      [
        `${gov}data-product`,
        `${gov}output-port`,
        `${gov}workload`,
        `${gov}data-contract`,
        `${gov}nothing`,
      ],
      { lang: 'en' },
    );
    expect(product).toEqual({
      iri: `${gov}data-product`,
      found: true,
      label: { value: 'Data product', lang: 'en' },
      labels: [{ value: 'Data product', lang: 'en' }],
      altLabels: [{ value: 'Data asset', lang: 'en' }],
      definitions: [{ value: 'A self-contained unit of data.', lang: 'en' }],
      broader: [],
      narrower: [`${gov}output-port`, `${gov}workload`],
      related: [`${gov}domain`],
    });
    expect(port?.broader).toEqual([`${gov}data-product`]);
    expect(port?.related).toEqual([`${gov}data-contract`]);
    expect(workload?.altLabels.map((text) => text.value)).toEqual(['Job', 'Pipeline']);
    expect(workload?.broader).toEqual([`${gov}data-product`]);
    expect(contract?.label).toEqual({ value: 'data contract' });
    expect(contract?.related).toEqual([`${gov}output-port`]);
    expect(unknown?.found).toBe(false);
  });

  it('prefers the languages asked for, in order', async () => {
    const [product] = await client.source('virtuoso').describe([`${gov}data-product`], {
      lang: ['it', 'en'],
    });
    expect(product?.label).toEqual({ value: 'Prodotto di dati', lang: 'it' });
    expect(product?.labels.map((text) => text.lang)).toEqual(['it', 'en']);
  });

  it('reads typed literals of a real server as plain numbers and booleans', async () => {
    const results = await client
      .source('virtuoso')
      .select<'priority' | 'mandatory'>(
        `SELECT ?priority ?mandatory WHERE { <${gov}data-contract> <${gov}priority> ?priority ; <${gov}mandatory> ?mandatory }`,
      );
    expect(toPlainRows(results)).toEqual([{ priority: 3, mandatory: true }]);
    expect(await client.source('virtuoso').ask(`ASK { <${gov}workload> ?p ?o }`)).toBe(true);
  });
});

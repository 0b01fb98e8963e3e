import { isVirtuosoAvailable, type RunningVirtuoso, startVirtuoso } from '@dcg/testing-virtuoso';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caught } from './__fixtures__/caught';
import { kgApiPresent, type SpawnedKgApi, spawnKgApi } from './__fixtures__/spawn-kg-api';
import { gov, vocabulary } from './__fixtures__/vocabulary';
import { createKgClient, type KgClient } from './create-kg-client';
import { KgProblemError } from './kg-client-error';
import { toPlainRows } from './plain-values';
import { createSourceGraphsClient } from './source-graphs';

// The client against the REAL kg-api, run as its own process: internal search and SPARQL over an
// uploaded vocabulary, passthrough search to a second kg-api, passthrough SPARQL to Virtuoso.

const virtuosoAvailability = await isVirtuosoAvailable();
if (!kgApiPresent())
  console.warn('SKIPPED: kg-client against kg-api (apps/kg-api is not in this checkout)');
if (!virtuosoAvailability.available) {
  console.warn(`SKIPPED: kg-client passthrough to Virtuoso (${virtuosoAvailability.reason})`);
}

const writerKey = 'writer-key-0123456789';
const readerKey = 'reader-key-0123456789';
const graph = 'https://example.org/graph/kg-client';
const apiKeys = [
  { name: 'writer', key: writerKey },
  { name: 'reader', key: readerKey, role: 'reader' },
];
const local = (id: string, passthrough = false) => ({
  id,
  name: id,
  modes: { ingestion: { enabled: true }, passthrough: { enabled: passthrough } },
});

async function upload(baseUrl: string, sourceId: string): Promise<void> {
  const response = await fetch(`${baseUrl}/v1/sources/${sourceId}/graph`, {
    method: 'PUT',
    body: vocabulary,
    headers: { 'content-type': 'text/turtle', authorization: `Bearer ${writerKey}` },
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

describe.skipIf(!kgApiPresent())('kg-client against kg-api', () => {
  let upstream: SpawnedKgApi;
  let api: SpawnedKgApi;
  let virtuoso: RunningVirtuoso | undefined;
  let client: KgClient;

  beforeAll(async () => {
    const [startedUpstream, startedVirtuoso] = await Promise.all([
      spawnKgApi({ sources: [local('kb')], auth: { apiKeys } }),
      virtuosoAvailability.available ? startVirtuoso() : Promise.resolve(undefined),
    ]);
    upstream = startedUpstream;
    virtuoso = startedVirtuoso;
    await upload(upstream.url, 'kb');
    await virtuoso?.load(vocabulary, graph);
    const sources: unknown[] = [
      local('local'),
      {
        id: 'upstream',
        name: 'A second kg-api',
        baseUrl: upstream.url,
        modes: { ingestion: { enabled: false }, passthrough: { enabled: true } },
      },
    ];
    if (virtuoso) {
      sources.push({
        id: 'virtuoso',
        name: 'Virtuoso',
        baseUrl: `http://127.0.0.1:${virtuoso.httpPort}`,
        sparqlEndpoint: virtuoso.sparqlUrl,
        defaultGraphUri: graph,
        modes: { ingestion: { enabled: false }, passthrough: { enabled: true } },
      });
    }
    api = await spawnKgApi({ sources, auth: { apiKeys, readsRequireKey: true } });
    await upload(api.url, 'local');
    client = createKgClient({ baseUrl: api.url, apiKey: readerKey, timeoutMs: 15_000 });
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), upstream?.stop(), virtuoso?.stop()]);
  });

  it('searches the ingested knowledge: IRIs only, best first', async () => {
    const page = await client.search('data product', { limit: 5 });
    expect(page.results[0]).toBe(`${gov}data-product`);
    expect(page).toMatchObject({ offset: 0, limit: 5 });
    expect(page.totalResults).toBeGreaterThanOrEqual(page.results.length);
    expect(page.results.every((iri) => iri.startsWith(gov))).toBe(true);
  });

  it('filters a search by language, type and scheme', async () => {
    const italian = await client.search('PRODOTTO', { lang: ['it', 'de'] });
    expect(italian.results).toEqual([`${gov}data-product`]);
    expect((await client.search('prodotto', { lang: 'en' })).totalResults).toBe(0);
    // `en` matches the `en` labels, never the untagged one of data-contract.
    const english = await client.search('data', { lang: 'en', limit: 100 });
    expect(english.results).toContain(`${gov}data-product`);
    expect(english.results).not.toContain(`${gov}data-contract`);
    const typed = await client.search('data', {
      type: 'http://www.w3.org/2004/02/skos/core#Concept',
      scheme: [`${gov}scheme`],
    });
    expect(typed).toMatchObject({ results: [], totalResults: 0 });
  });

  it('walks every page with searchAll', async () => {
    const all = await client.search('data', { limit: 100 });
    expect(all.totalResults).toBeGreaterThan(1);
    const pages = [];
    for await (const page of client.searchAll('data', { pageSize: 1 })) pages.push(page);
    expect(pages).toHaveLength(all.totalResults);
    expect(pages.flatMap((page) => page.results).sort()).toEqual([...all.results].sort());
  });

  it('describes concepts with one SPARQL query over the subset', async () => {
    const [product, workload, contract] = await client.describe(
      [`${gov}data-product`, `${gov}workload`, `${gov}data-contract`],
      { lang: 'en' },
    );
    expect(product).toMatchObject({
      found: true,
      label: { value: 'Data product', lang: 'en' },
      altLabels: [{ value: 'Data asset', lang: 'en' }],
      definitions: [{ value: 'A self-contained unit of data.', lang: 'en' }],
      narrower: [`${gov}output-port`, `${gov}workload`],
      related: [`${gov}domain`],
    });
    expect(workload?.broader).toEqual([`${gov}data-product`]);
    expect(contract?.label).toEqual({ value: 'data contract' });
  });

  it('describes 150 IRIs (two queries of at most 100), one description per distinct IRI', async () => {
    const unknown = Array.from({ length: 148 }, (_, index) => `${gov}unknown-${index}`);
    const iris = [`${gov}workload`, ...unknown, `${gov}workload`, `${gov}data-product`];
    let requests = 0;
    const counting = createKgClient({
      baseUrl: api.url,
      apiKey: readerKey,
      timeoutMs: 30_000,
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    });
    const descriptions = await counting.describe(iris);
    expect(requests).toBe(2);
    expect(descriptions).toHaveLength(150);
    expect(descriptions.map((description) => description.iri)).toEqual([
      `${gov}workload`,
      ...unknown,
      `${gov}data-product`,
    ]);
    expect(descriptions.filter((description) => description.found).map((d) => d.iri)).toEqual([
      `${gov}workload`,
      `${gov}data-product`,
    ]);
    // Without a language every label comes back.
    expect(descriptions[149]?.labels.map((label) => label.lang)).toEqual(['en', 'it']);
  });

  it('answers SELECT and ASK with typed bindings and plain values', async () => {
    const results = await client.select<'priority' | 'mandatory'>(
      `SELECT ?priority ?mandatory WHERE { <${gov}data-contract> <${gov}priority> ?priority ; <${gov}mandatory> ?mandatory }`,
    );
    expect(results.head.vars).toEqual(['priority', 'mandatory']);
    expect(toPlainRows(results)).toEqual([{ priority: 3, mandatory: true }]);
    expect(await client.ask(`ASK { <${gov}workload> ?p ?o }`)).toBe(true);
    expect(await client.ask(`ASK { <${gov}nothing> ?p ?o }`)).toBe(false);
  });

  it('carries the problem details of a query outside the subset', async () => {
    const error = await caught(client.sparql('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'));
    expect(error).toBeInstanceOf(KgProblemError);
    expect((error as KgProblemError).status).toBe(400);
    expect(JSON.stringify((error as KgProblemError).problem)).toContain('AGGREGATE_NOT_SUPPORTED');
  });

  it('lists the sources and replaces a graph with a writer key, reporting upload progress', async () => {
    const writer = createSourceGraphsClient({ baseUrl: api.url, apiKey: writerKey });
    const sources = await writer.sources();
    expect(sources.map((source) => source.id)).toEqual(
      expect.arrayContaining(['local', 'upstream']),
    );
    expect(sources.find((source) => source.id === 'upstream')?.modes).toMatchObject({
      ingestion: { enabled: false },
      passthrough: { enabled: true },
    });
    // Over 256 KiB, so that it goes in several chunks.
    const lines = Array.from(
      { length: 6_000 },
      (_, i) =>
        `<https://ex.org/t${i}> <http://www.w3.org/2004/02/skos/core#prefLabel> "Progress term ${i}" .`,
    );
    const document = new TextEncoder().encode(`${lines.join('\n')}\n`);
    const progress: number[] = [];
    let uploaded = 0;
    const info = await writer.replaceGraph('local', document, {
      mediaType: 'application/n-triples',
      onUploadProgress: (sent, total) => {
        expect(total).toBe(document.byteLength);
        progress.push(sent);
      },
      onUploaded: () => {
        uploaded += 1;
      },
    });
    expect(info).toMatchObject({ sourceId: 'local', triples: 6_000 });
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(document.byteLength);
    expect(uploaded).toBe(1);
    expect((await client.search('progress term 5999')).results[0]).toBe('https://ex.org/t5999');
    await writer.replaceGraph('local', vocabulary, { mediaType: 'text/turtle' });

    const reader = createSourceGraphsClient({ baseUrl: api.url, apiKey: readerKey });
    const refused = await caught(
      reader.replaceGraph('local', vocabulary, { mediaType: 'text/turtle' }),
    );
    expect(refused).toMatchObject({ code: 'problem', status: 403 });
    const noIngestion = await caught(
      writer.replaceGraph('upstream', vocabulary, { mediaType: 'text/turtle' }),
    );
    expect(noIngestion).toMatchObject({ code: 'problem' });
    expect(
      await caught(writer.replaceGraph('..', vocabulary, { mediaType: 'text/turtle' })),
    ).toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('passes search through to a second kg-api', async () => {
    const direct = await createKgClient({ baseUrl: upstream.url }).search('data product');
    const passed = await client.source('upstream').search('data product');
    expect(passed.results).toEqual(direct.results);
    expect(passed.totalResults).toBe(direct.totalResults);
  });

  it('refuses unknown sources (404), sources without passthrough (403) and missing keys (401)', async () => {
    const unknown = await caught(client.source('missing').search('data'));
    expect(unknown).toMatchObject({ code: 'problem', status: 404 });
    const disabled = await caught(client.source('local').sparql('ASK { ?s ?p ?o }'));
    expect(disabled).toMatchObject({ status: 403 });
    expect((disabled as KgProblemError).problem.detail).toMatch(/passthrough/i);
    const anonymous = await caught(createKgClient({ baseUrl: api.url }).search('data'));
    expect(anonymous).toMatchObject({ status: 401 });
  });

  describe.skipIf(!virtuosoAvailability.available)('passthrough to Virtuoso', () => {
    it('describes the same concepts the same way as the internal graph', async () => {
      const iris = [
        `${gov}data-product`,
        `${gov}output-port`,
        `${gov}workload`,
        `${gov}data-contract`,
      ];
      const internal = await client.describe(iris, { lang: ['it', 'en'] });
      const upstreamDescriptions = await client
        .source('virtuoso')
        .describe(iris, { lang: ['it', 'en'] });
      expect(upstreamDescriptions).toEqual(internal);
      expect(internal[0]?.label).toEqual({ value: 'Prodotto di dati', lang: 'it' });
    });

    it('serves richer SPARQL upstream (an aggregate), as plain values', async () => {
      const results = await client
        .source('virtuoso')
        .select<'n'>(`SELECT (COUNT(?o) AS ?n) WHERE { <${gov}workload> ?p ?o }`);
      expect(toPlainRows(results)).toEqual([{ n: 4 }]);
    });

    it('reports an upstream without a search API as a 502 problem', async () => {
      const quick = createKgClient({ baseUrl: api.url, apiKey: readerKey, retries: 0 });
      const error = await caught(quick.source('virtuoso').search('data'));
      expect(error).toMatchObject({ code: 'problem', status: 502 });
    });
  });
});

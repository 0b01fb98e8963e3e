import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, parseConfig, resolveApiKeys } from '@dcg/http-kit';
import { KnowledgeBase, parseRdf, SourceIngestion } from '@dcg/knowledge-graph';
import { FileGraphPersistence } from '@dcg/knowledge-graph/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKgApp } from './app';
import { KgApiConfigSchema } from './config';

const logger = createLogger('kg-api-test', { level: 'silent' });
const EX = 'https://ex.org/';

// Two schemes, two classes, labels in several languages (tags in mixed case).
const TURTLE = `
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix ex: <${EX}> .
ex:street a skos:Concept ; skos:inScheme ex:roads ;
  skos:prefLabel "Straße"@de-DE , "street"@en-US .
ex:lane a skos:Concept ; skos:inScheme ex:roads ;
  skos:prefLabel "lane"@en-GB ; skos:altLabel "Strasse lane"@FR .
ex:river a ex:Waterway ; skos:inScheme ex:water ;
  skos:prefLabel "river street"@en .
ex:untagged a skos:Concept ; skos:prefLabel "street without a tag" .
ex:red a skos:Concept ; skos:prefLabel "Kırmızı"@tr .
`;

describe('GET /v1/search/query filters and folding', () => {
  let dir: string;
  let app: ReturnType<typeof buildKgApp>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kg-search-'));
    const config = parseConfig(
      KgApiConfigSchema,
      {
        sources: [
          {
            id: 'local',
            name: 'local',
            modes: { ingestion: { enabled: true }, passthrough: { enabled: false } },
          },
        ],
      },
      'test configuration',
    );
    const persistence = new FileGraphPersistence(join(dir, 'data'));
    const kb = await KnowledgeBase.open({
      sources: config.sources,
      search: config.search,
      persistence,
    });
    const parsed = await parseRdf(TURTLE, 'turtle');
    if (!parsed.success) throw new Error(parsed.issues[0]?.message);
    await kb.replaceGraph('local', parsed.data);
    const rdfParse = {
      maxJsonDepth: config.ingestion.maxJsonLdDepth,
      maxXmlDepth: config.ingestion.maxRdfXmlDepth,
    };
    app = buildKgApp({
      config,
      kb,
      apiKeys: resolveApiKeys(config.auth.apiKeys, { env: {} }).keys,
      ingestion: new SourceIngestion(
        kb,
        { timeoutMs: 5_000, maxBytes: 1_000_000, parse: rdfParse },
        logger,
      ),
      rdfParse,
      logger,
      storageWritable: () => persistence.writable(),
    });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const search = async (query: string) => {
    const response = await app.request(`/v1/search/query?${query}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const results = async (query: string) => {
    const { status, body } = await search(query);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.results as string[];
  };

  it('folds case fully: strasse finds Straße and STRASSE finds both', async () => {
    expect(await results('term=strasse&lang=de')).toEqual([`${EX}street`]);
    expect(await results('term=stra%C3%9Fe&lang=fr')).toEqual([`${EX}lane`]);
    expect(new Set(await results('term=STRASSE'))).toEqual(new Set([`${EX}street`, `${EX}lane`]));
    expect(await results('term=kirmizi')).toEqual([`${EX}red`]);
    expect(await results('term=KIRMIZI')).toEqual([`${EX}red`]);
  });

  it('filters by language as langMatches does, case-insensitively', async () => {
    expect(new Set(await results('term=street'))).toEqual(
      new Set([`${EX}street`, `${EX}river`, `${EX}untagged`]),
    );
    // `en` matches `en-US` and `en`; untagged literals never match a range.
    expect(new Set(await results('term=street&lang=en'))).toEqual(
      new Set([`${EX}street`, `${EX}river`]),
    );
    expect(await results('term=street&lang=EN-us')).toEqual([`${EX}street`]);
    expect(await results('term=street&lang=en-GB')).toEqual([]);
    expect(await results('term=lane&lang=fr&lang=de')).toEqual([`${EX}lane`]);
    expect(await results('term=lane&lang=de,fr')).toEqual([`${EX}lane`]);
    expect(await results('term=street&lang=e')).toEqual([]);
    expect(new Set(await results('term=street&lang=*'))).toEqual(
      new Set([`${EX}street`, `${EX}river`]),
    );
  });

  it('filters by rdf:type and skos:inScheme; both together must hold', async () => {
    const concept = encodeURIComponent('http://www.w3.org/2004/02/skos/core#Concept');
    const roads = encodeURIComponent(`${EX}roads`);
    const water = encodeURIComponent(`${EX}water`);
    expect(new Set(await results(`term=street&type=${concept}`))).toEqual(
      new Set([`${EX}street`, `${EX}untagged`]),
    );
    expect(await results(`term=street&type=${encodeURIComponent(`${EX}Waterway`)}`)).toEqual([
      `${EX}river`,
    ]);
    expect(await results(`term=street&scheme=${water}`)).toEqual([`${EX}river`]);
    expect(new Set(await results(`term=street&scheme=${water}&scheme=${roads}`))).toEqual(
      new Set([`${EX}street`, `${EX}river`]),
    );
    expect(await results(`term=street&scheme=${water}&type=${concept}`)).toEqual([]);
    const page = await search(`term=street&scheme=${roads}&lang=en&limit=1`);
    // The C1 shape is unchanged.
    expect(page.body).toEqual({
      results: [`${EX}street`],
      totalResults: 1,
      offset: 0,
      limit: 1,
      hasNextPage: false,
    });
  });

  it('refuses a bad language tag or IRI with a 400 problem', async () => {
    for (const query of [
      'term=x&lang=en_US',
      'term=x&lang=toolongsubtag',
      'term=x&type=not%20an%20iri',
      'term=x&scheme=relative/path',
      `term=x&${Array.from({ length: 17 }, (_, i) => `lang=l${'a'.repeat(i % 8)}`).join('&')}`,
      `term=x&type=${encodeURIComponent(`https://ex.org/${'a'.repeat(3000)}`)}`,
    ]) {
      const response = await app.request(`/v1/search/query?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
      const body = (await response.json()) as { errors?: Array<{ path: string }> };
      expect(body.errors?.[0]?.path, query).toMatch(/^\$\.(lang|type|scheme)\b/);
    }
  });
});

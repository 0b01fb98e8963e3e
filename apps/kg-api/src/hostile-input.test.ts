import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKOS, TURTLE } from './__fixtures__/test-servers';
import { startVocabKgApi, type VocabKgApi } from './__fixtures__/vocab-kg-api';
import type { RunningKgApi } from './server';

interface Problem {
  type?: string;
  status: number;
  detail?: string;
  problems?: Array<{ code: string }>;
  byteOffset?: number;
  line?: number;
  column?: number;
}

describe('kg-api under hostile input', () => {
  let kg: VocabKgApi;
  let api: RunningKgApi;

  beforeAll(async () => {
    kg = await startVocabKgApi({
      prefix: 'kg-hostile-',
      config: { sparql: { timeoutMs: 5_000, maxBlockMs: 50 } },
    });
    api = kg.api;
    const put = await upload(TURTLE, 'text/turtle');
    expect(put.status).toBe(200);
  });
  afterAll(() => kg?.close());

  function upload(body: BodyInit, contentType: string, query = '') {
    return kg.upload(body, contentType, query);
  }
  function sparql(body: BodyInit, contentType = 'application/sparql-query') {
    return fetch(`${api.url}/v1/graph/sparql`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
  }
  async function triples(): Promise<number> {
    const info = (await (await fetch(`${api.url}/v1/sources/vocab/graph`)).json()) as {
      triples: number;
    };
    return info.triples;
  }

  describe('SPARQL text is refused by size and depth before parsing', () => {
    it.each([
      [
        '10,000 nested groups',
        `SELECT * WHERE ${'{'.repeat(10_000)} ?s ?p ?o ${'}'.repeat(10_000)}`,
      ],
      [
        '100,000 parentheses in a FILTER',
        `SELECT * WHERE { ?s ?p ?o FILTER(${'('.repeat(100_000)}?o${')'.repeat(100_000)}) }`,
      ],
      [
        '10,000 UNIONs',
        `SELECT * WHERE { ${Array.from({ length: 10_000 }, (_, i) => `{ ?s <urn:p${i}> ?o }`).join(' UNION ')} }`,
      ],
      [
        '5,000 OPTIONALs',
        `SELECT * WHERE { ?s ?p ?o ${Array.from({ length: 5_000 }, (_, i) => `OPTIONAL { ?s <urn:p${i}> ?o${i} }`).join(' ')} }`,
      ],
      [
        'a 1,000-deep nesting in 3 KB',
        `SELECT * WHERE { ?s ?p ?o FILTER(${'('.repeat(1_000)}?o${')'.repeat(1_000)}) }`,
      ],
      ['400 UNIONs in 12 KB', `SELECT * { ${Array(401).fill('{ ?s ?p ?o }').join(' UNION ')} }`],
    ])('%s: 400 with a problem code', async (_name, text) => {
      const response = await sparql(text);
      expect(response.status).toBe(400);
      const problem = (await response.json()) as Problem;
      expect(problem.type).toBe('urn:dcg:kg:query_rejected');
      expect(['NESTING_TOO_DEEP', 'QUERY_TOO_LARGE']).toContain(problem.problems?.[0]?.code);
    });

    it('a part that cannot yield (EXISTS in an ORDER BY key) is ended after sparql.maxBlockMs with 422', async () => {
      // Enough triples for the EXISTS of one row to take longer than 50 ms.
      const lines = Array.from(
        { length: 600 },
        (_, i) => `<https://ex.org/c${i}> <${SKOS}prefLabel> "label ${i}" .`,
      );
      expect((await upload(lines.join('\n'), 'application/n-triples')).status).toBe(200);
      const response = await sparql(
        // In a FILTER the same EXISTS pauses like any pattern and is bounded by sparql.timeoutMs.
        `SELECT * { ?a <${SKOS}prefLabel> ?x } ORDER BY (EXISTS { ?b <${SKOS}prefLabel> ?y . ?c <${SKOS}prefLabel> ?z FILTER(STR(?y) = CONCAT(STR(?x), STR(?z))) })`,
      );
      expect(response.status).toBe(422);
      expect(((await response.json()) as Problem).type).toBe('urn:dcg:kg:query_too_expensive');
      expect((await upload(TURTLE, 'text/turtle')).status).toBe(200);
    });
  });

  describe('empty documents never hang and never wipe silently', () => {
    it.each(['text/turtle', 'application/n-triples', 'application/n-quads', 'application/trig'])(
      'an empty %s body is refused with 400, and accepted with allowEmpty=true',
      async (type) => {
        expect((await upload(TURTLE, 'text/turtle')).status).toBe(200);
        const before = await triples();
        const refused = await upload('', type);
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as Problem).type).toBe('urn:dcg:kg:empty_graph');
        expect(await triples()).toBe(before);
        const emptied = await upload('', type, '?allowEmpty=true');
        expect(emptied.status).toBe(200);
        expect(await triples()).toBe(0);
      },
    );

    it.each(['null', '{}', '[]', '{"server": {"port": 8080}}'])(
      'JSON %s yields no triples: 400 and the graph stays',
      async (body) => {
        expect((await upload(TURTLE, 'text/turtle')).status).toBe(200);
        const before = await triples();
        const refused = await upload(body, 'application/json');
        expect(refused.status).toBe(400);
        expect(((await refused.json()) as Problem).detail).toMatch(/no triples/);
        expect(await triples()).toBe(before);
      },
    );

    it('an empty JSON-LD body is not JSON (400); {} with allowEmpty=true empties the graph', async () => {
      expect((await upload(TURTLE, 'text/turtle')).status).toBe(200);
      const refused = await upload('', 'application/ld+json', '?allowEmpty=true');
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as Problem).type).toBe('urn:dcg:kg:rdf_syntax');
      expect(await triples()).toBeGreaterThan(0);
      expect((await upload('{}', 'application/ld+json', '?allowEmpty=true')).status).toBe(200);
      expect(await triples()).toBe(0);
    });

    it('allowEmpty must be true or false', async () => {
      const response = await upload('', 'text/turtle', '?allowEmpty=yes');
      expect(response.status).toBe(400);
    });
  });

  describe('deep JSON-LD is refused before parsing', () => {
    it.each([
      ['200 KB nested 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
      [
        '20 KB nested 1,000 deep',
        `${'{"@id":"urn:a","urn:p":'.repeat(1_000)}1${'}'.repeat(1_000)}`,
      ],
    ])('%s: 422 with the position and the setting', async (_name, body) => {
      const response = await upload(body, 'application/ld+json');
      expect(response.status).toBe(422);
      const problem = (await response.json()) as Problem;
      expect(problem.type).toBe('urn:dcg:kg:document_too_costly');
      expect(problem.detail).toMatch(
        /nested more than 64 levels deep \(ingestion\.maxJsonLdDepth\)/,
      );
      expect(problem.line).toBe(1);
      expect(problem.column).toBeGreaterThan(64);
    });
  });

  describe('invalid UTF-8 is refused with the byte offset, never replaced', () => {
    const bad = (before: string, after: string) =>
      new Uint8Array([
        ...new TextEncoder().encode(before),
        0xff,
        ...new TextEncoder().encode(after),
      ]);

    it.each([
      ['text/turtle', '<https://ex.org/a> <https://ex.org/b> "caf', 'e" .'],
      ['application/n-triples', '<https://ex.org/', 'a> <https://ex.org/b> "c" .'],
      ['application/ld+json', '{"@id": "https://ex.org/a", "https://ex.org/b": "x', '"}'],
    ])('in a %s upload', async (type, before, after) => {
      const response = await upload(bad(before, after), type);
      expect(response.status).toBe(400);
      const problem = (await response.json()) as Problem;
      expect(problem.type).toBe('urn:dcg:kg:invalid_utf8');
      expect(problem.byteOffset).toBe(new TextEncoder().encode(before).length);
    });

    it('in a query body, a form and a query string', async () => {
      const text = 'SELECT * { ?s ?p "caf';
      const body = await sparql(bad(text, '" }'));
      expect(body.status).toBe(400);
      expect(((await body.json()) as Problem).byteOffset).toBe(text.length);
      const form = await sparql(
        `query=${encodeURIComponent(text)}%FF${encodeURIComponent('" }')}`,
        'application/x-www-form-urlencoded',
      );
      expect(form.status).toBe(400);
      expect(((await form.json()) as Problem).byteOffset).toBe(text.length);
      const get = await fetch(
        `${api.url}/v1/graph/sparql?query=${encodeURIComponent(text)}%C3%28${encodeURIComponent('" }')}`,
      );
      expect(get.status).toBe(400);
      expect(((await get.json()) as Problem).type).toBe('urn:dcg:kg:invalid_utf8');
    });

    it('valid UTF-8 and percent-encoding still work', async () => {
      expect((await upload(TURTLE, 'text/turtle')).status).toBe(200);
      const query = `SELECT ?l { ?c <${SKOS}prefLabel> ?l FILTER(?l = "Water"@en) }`;
      const get = await fetch(`${api.url}/v1/graph/sparql?query=${encodeURIComponent(query)}`);
      expect(get.status).toBe(200);
      const form = await sparql(
        new URLSearchParams({ query: `${query} # é€𝄞` }).toString(),
        'application/x-www-form-urlencoded',
      );
      expect(form.status).toBe(200);
      expect(await form.json()).toMatchObject({
        results: { bindings: [{ l: { value: 'Water' } }] },
      });
    });
  });

  it('SPARQL Update forms get the problem of an update query', async () => {
    const answers = await Promise.all([
      sparql('INSERT DATA { <urn:a> <urn:b> <urn:c> }'),
      sparql('update=INSERT+DATA+%7B%7D', 'application/x-www-form-urlencoded'),
      sparql('INSERT DATA { <urn:a> <urn:b> <urn:c> }', 'application/sparql-update'),
      fetch(`${api.url}/v1/graph/sparql?update=${encodeURIComponent('CLEAR ALL')}`),
    ]);
    for (const response of answers) {
      expect(response.status).toBe(400);
      const problem = (await response.json()) as Problem;
      expect(problem.type).toBe('urn:dcg:kg:query_rejected');
      expect(problem.problems?.[0]?.code).toBe('UPDATE_NOT_SUPPORTED');
    }
  });
});

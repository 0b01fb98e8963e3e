import { parseRdf } from '@dcg/knowledge-graph';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessKgApp, inProcessKgApp } from './__fixtures__/in-process-app';

const TURTLE = `@prefix ex: <https://ex.org/> .
<https://ex.org/a?x=1&y=2> ex:label "Tom & \\"Jerry\\", <x>\\nnext"@en ; ex:rank 7 ; ex:part _:p .
`;
const SELECT =
  'SELECT ?s ?label ?rank ?part WHERE { ?s <https://ex.org/label> ?label ; <https://ex.org/rank> ?rank ; <https://ex.org/part> ?part }';
const ASK = 'ASK { ?s <https://ex.org/rank> 7 }';
const SD = 'http://www.w3.org/ns/sparql-service-description#';
const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';

interface Problem {
  type?: string;
  status: number;
  detail?: string;
  offered?: string[];
  errors?: Array<{ path: string }>;
}

describe('SPARQL results formats on /v1/graph/sparql', () => {
  let kg: InProcessKgApp;
  beforeAll(async () => {
    kg = await inProcessKgApp(TURTLE);
  });
  afterAll(async () => {
    await kg?.close();
  });

  function get(query: string, headers: Record<string, string> = {}, extra = '') {
    return kg.app.request(`/v1/graph/sparql?query=${encodeURIComponent(query)}${extra}`, {
      headers,
    });
  }
  function post(query: string, headers: Record<string, string> = {}, url = '/v1/graph/sparql') {
    return kg.app.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query', ...headers },
      body: query,
    });
  }
  /** The blank node's label, as the engine names it (the same in every format). */
  async function bnodeLabel(): Promise<string> {
    const json = (await (await get(SELECT)).json()) as {
      results: { bindings: Array<{ part: { value: string } }> };
    };
    return json.results.bindings[0]?.part.value as string;
  }

  it('answers JSON without Accept, and with Accept: application/sparql-results+json', async () => {
    for (const headers of [{}, { accept: 'application/sparql-results+json' }]) {
      const response = await get(SELECT, headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/sparql-results+json');
      expect(response.headers.get('vary')).toMatch(/accept/i);
      const body = (await response.json()) as { head: { vars: string[] } };
      expect(body.head.vars).toEqual(['s', 'label', 'rank', 'part']);
    }
  });

  it('answers SPARQL XML, escaped, for Accept: application/sparql-results+xml', async () => {
    const b = await bnodeLabel();
    const response = await get(SELECT, { accept: 'application/sparql-results+xml' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/sparql-results+xml; charset=utf-8',
    );
    expect(await response.text()).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sparql xmlns="http://www.w3.org/2005/sparql-results#">',
        '  <head>',
        '    <variable name="s"/>',
        '    <variable name="label"/>',
        '    <variable name="rank"/>',
        '    <variable name="part"/>',
        '  </head>',
        '  <results>',
        '    <result>',
        '      <binding name="s"><uri>https://ex.org/a?x=1&amp;y=2</uri></binding>',
        '      <binding name="label"><literal xml:lang="en">Tom &amp; &quot;Jerry&quot;, &lt;x&gt;\nnext</literal></binding>',
        `      <binding name="rank"><literal datatype="${XSD_INTEGER}">7</literal></binding>`,
        `      <binding name="part"><bnode>${b}</bnode></binding>`,
        '    </result>',
        '  </results>',
        '</sparql>',
        '',
      ].join('\n'),
    );
  });

  it('answers CSV with RFC 4180 quoting for Accept: text/csv', async () => {
    const b = await bnodeLabel();
    const response = await post(SELECT, { accept: 'text/csv' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await response.text()).toBe(
      `s,label,rank,part\r\nhttps://ex.org/a?x=1&y=2,"Tom & ""Jerry"", <x>\nnext",7,_:${b}\r\n`,
    );
  });

  it('answers TSV with terms in SPARQL syntax for Accept: text/tab-separated-values', async () => {
    const b = await bnodeLabel();
    const response = await get(SELECT, { accept: 'text/tab-separated-values' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/tab-separated-values; charset=utf-8');
    expect(await response.text()).toBe(
      '?s\t?label\t?rank\t?part\n' +
        `<https://ex.org/a?x=1&y=2>\t"Tom & \\"Jerry\\", <x>\\nnext"@en\t"7"^^<${XSD_INTEGER}>\t_:${b}\n`,
    );
  });

  it('weighs Accept q-values: the highest acceptable format wins', async () => {
    const response = await get(SELECT, {
      accept:
        'application/sparql-results+json;q=0.2, text/csv;q=0.5, application/sparql-results+xml;q=0.9',
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/sparql-results\+xml/);
    const wildcard = await get(SELECT, { accept: 'text/*;q=0.8, */*;q=0.1' });
    expect(wildcard.headers.get('content-type')).toMatch(/^text\/csv/);
  });

  it('lets the format parameter (URL or form) win over Accept', async () => {
    const viaUrl = await get(SELECT, { accept: 'application/sparql-results+json' }, '&format=tsv');
    expect(viaUrl.headers.get('content-type')).toMatch(/^text\/tab-separated-values/);
    const viaForm = await kg.app.request('/v1/graph/sparql', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ query: SELECT, format: 'xml' }).toString(),
    });
    expect(viaForm.status).toBe(200);
    expect(viaForm.headers.get('content-type')).toMatch(/^application\/sparql-results\+xml/);
    const viaPostUrl = await post(SELECT, {}, '/v1/graph/sparql?format=csv');
    expect(viaPostUrl.headers.get('content-type')).toMatch(/^text\/csv/);
  });

  it('answers 406 with the offered types when no format fits', async () => {
    const response = await get(SELECT, { accept: 'text/html, application/json;q=0' });
    expect(response.status).toBe(406);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await response.json()) as Problem;
    expect(problem.type).toBe('urn:dcg:kg:not_acceptable');
    expect(problem.offered).toEqual([
      'application/sparql-results+json',
      'application/sparql-results+xml',
      'text/csv',
      'text/tab-separated-values',
    ]);
  });

  it('answers 400 for an unknown format parameter', async () => {
    const response = await get(SELECT, {}, '&format=html');
    expect(response.status).toBe(400);
    const problem = (await response.json()) as Problem;
    expect(problem.errors?.[0]?.path).toBe('$.format');
  });

  it('answers ASK in JSON and XML; CSV or TSV alone gets 406 offering JSON and XML', async () => {
    const json = await get(ASK);
    expect(await json.text()).toBe('{"head":{},"boolean":true}');
    const xml = await get(ASK, { accept: 'application/sparql-results+xml' });
    expect(await xml.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n  <head/>\n  <boolean>true</boolean>\n</sparql>\n',
    );
    // CSV preferred, XML acceptable: the ASK answer comes as XML.
    const fallback = await get(ASK, { accept: 'text/csv, application/sparql-results+xml;q=0.5' });
    expect(fallback.headers.get('content-type')).toMatch(/^application\/sparql-results\+xml/);
    for (const [headers, extra] of [
      [{ accept: 'text/csv' }, ''],
      [{}, '&format=tsv'],
    ] as const) {
      const refused = await get(ASK, headers, extra);
      expect(refused.status).toBe(406);
      const problem = (await refused.json()) as Problem;
      expect(problem.offered).toEqual([
        'application/sparql-results+json',
        'application/sparql-results+xml',
      ]);
      expect(problem.detail).toMatch(/ASK/);
    }
  });

  it('refuses default-graph-uri and named-graph-uri with a 400 problem instead of ignoring them', async () => {
    const viaGet = await get(SELECT, {}, '&default-graph-uri=https%3A%2F%2Fex.org%2Fg');
    expect(viaGet.status).toBe(400);
    const problem = (await viaGet.json()) as Problem;
    expect(problem.type).toBe('urn:dcg:kg:dataset_unsupported');
    expect(problem.errors?.map((e) => e.path)).toEqual(['$.default-graph-uri']);
    const viaForm = await kg.app.request('/v1/graph/sparql', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        query: SELECT,
        'named-graph-uri': 'https://ex.org/g',
      }).toString(),
    });
    expect(viaForm.status).toBe(400);
    expect(((await viaForm.json()) as Problem).detail).toMatch(/named-graph-uri/);
  });

  it('answers GET without a query with a SPARQL 1.1 Service Description in Turtle', async () => {
    const response = await kg.app.request('http://kg.test/v1/graph/sparql');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/turtle; charset=utf-8');
    const quads = new Parser().parse(await response.text());
    const objects = (predicate: string) =>
      quads.filter((q) => q.predicate.value === `${SD}${predicate}`).map((q) => q.object.value);
    expect(objects('endpoint')).toEqual(['http://kg.test/v1/graph/sparql']);
    expect(objects('supportedLanguage')).toEqual([`${SD}SPARQL11Query`]);
    expect(objects('resultFormat')).toHaveLength(4);
    // An empty query is still a missing query, not a request for the description.
    expect((await kg.app.request('/v1/graph/sparql?query=')).status).toBe(400);
  });

  it('answers the Service Description as JSON-LD when Accept prefers it, with the same triples', async () => {
    const turtle = await kg.app.request('http://kg.test/v1/graph/sparql', {
      headers: { accept: 'application/ld+json;q=0.5, text/turtle' },
    });
    expect(turtle.headers.get('content-type')).toMatch(/^text\/turtle/);
    const response = await kg.app.request('http://kg.test/v1/graph/sparql', {
      headers: { accept: 'application/ld+json' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ld+json');
    const parsed = await parseRdf(await response.text(), 'json-ld');
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    const fromTurtle = new Parser().parse(await turtle.text());
    const withoutBlanks = (
      quads: Array<{ predicate: { value: string }; object: { termType: string; value: string } }>,
    ) =>
      quads
        .filter((q) => q.object.termType !== 'BlankNode')
        .map((q) => `${q.predicate.value} ${q.object.value}`)
        .sort();
    expect(withoutBlanks(parsed.data)).toEqual(withoutBlanks(fromTurtle));
    expect(parsed.data).toHaveLength(fromTurtle.length);
  });

  it('answers HEAD like GET, without a body', async () => {
    const head = await kg.app.request(`/v1/graph/sparql?query=${encodeURIComponent(SELECT)}`, {
      method: 'HEAD',
      headers: { accept: 'text/csv' },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await head.text()).toBe('');
    const description = await kg.app.request('/v1/graph/sparql', { method: 'HEAD' });
    expect(description.status).toBe(200);
    expect(description.headers.get('content-type')).toMatch(/^text\/turtle/);
  });

  it.each(['PUT', 'DELETE', 'PATCH'])('answers %s with 405 and Allow', async (method) => {
    const response = await kg.app.request('/v1/graph/sparql', { method, body: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

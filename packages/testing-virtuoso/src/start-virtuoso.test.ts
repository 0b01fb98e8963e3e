import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isVirtuosoAvailable } from './availability';
import { VirtuosoError } from './errors';
import { getIniValue } from './ini-file';
import { type RunningVirtuoso, startVirtuoso } from './start-virtuoso';

const availability = await isVirtuosoAvailable();
if (!availability.available) {
  console.warn(`SKIPPED: Virtuoso tests (${availability.reason})`);
}

const graph = 'https://example.org/graph/test';
const rdfsLabel = 'http://www.w3.org/2000/01/rdf-schema#label';

interface SparqlJson {
  head: { vars: string[] };
  results: { bindings: Record<string, { type: string; value: string; 'xml:lang'?: string }>[] };
}

async function select(virtuoso: RunningVirtuoso, query: string, method: 'GET' | 'POST' = 'GET') {
  const params = new URLSearchParams({ query, 'default-graph-uri': graph });
  const response =
    method === 'GET'
      ? await fetch(`${virtuoso.sparqlUrl}?${params}`, {
          headers: { accept: 'application/sparql-results+json' },
        })
      : await fetch(virtuoso.sparqlUrl, {
          method: 'POST',
          body: params,
          headers: { accept: 'application/sparql-results+json' },
        });
  expect(response.status).toBe(200);
  return (await response.json()) as SparqlJson;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

// Starting Virtuoso creates a database: seconds on an idle machine, far more on a busy CI runner.
describe.skipIf(!availability.available)('startVirtuoso', () => {
  let virtuoso: RunningVirtuoso;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dcg-virtuoso-test-data-'));
    virtuoso = await startVirtuoso({ ini: { SPARQL: { ResultSetMaxRows: 3 } } });
  });

  afterAll(async () => {
    await virtuoso?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves SPARQL on a loopback port with the ini it was given', async () => {
    expect(virtuoso.sparqlUrl).toBe(`http://127.0.0.1:${virtuoso.httpPort}/sparql`);
    expect(virtuoso.sqlPort).not.toBe(virtuoso.httpPort);
    const ini = await readFile(join(virtuoso.dir, 'virtuoso.ini'), 'utf8');
    expect(getIniValue(ini, 'Database', 'DatabaseFile')).toBe(join(virtuoso.dir, 'virtuoso.db'));
    expect(getIniValue(ini, 'Parameters', 'DirsAllowed')).toContain(virtuoso.dir);
    const empty = await select(virtuoso, 'SELECT ?s WHERE { ?s ?p ?o }');
    expect(empty.results.bindings).toEqual([]);
  });

  it('loads N-Triples text into a named graph, queryable by GET and by form POST', async () => {
    await virtuoso.load(
      [
        `<https://example.org/c/1> <${rdfsLabel}> "Alpha"@en .`,
        `<https://example.org/c/1> <${rdfsLabel}> "Alfa"@it .`,
        `<https://example.org/c/2> <${rdfsLabel}> "Beta" .`,
        '',
      ].join('\n'),
      graph,
    );
    const query = `SELECT ?s ?label WHERE { ?s <${rdfsLabel}> ?label FILTER(lang(?label) = "en") }`;
    for (const method of ['GET', 'POST'] as const) {
      const answer = await select(virtuoso, query, method);
      expect(answer.head.vars).toEqual(['s', 'label']);
      expect(answer.results.bindings).toEqual([
        {
          s: { type: 'uri', value: 'https://example.org/c/1' },
          label: { type: 'literal', 'xml:lang': 'en', value: 'Alpha' },
        },
      ]);
    }
  });

  it('loads a file by path, leaving the data outside the default graph untouched', async () => {
    const file = join(dataDir, 'more.nt');
    await writeFile(file, `<https://example.org/c/3> <${rdfsLabel}> "Gamma" .\n`);
    await virtuoso.load(file, graph);
    await virtuoso.load(
      `<https://example.org/c/9> <${rdfsLabel}> "Elsewhere" .\n`,
      `${graph}/other`,
    );
    const answer = await select(
      virtuoso,
      `SELECT ?s WHERE { ?s <${rdfsLabel}> ?label FILTER(lang(?label) = "") } ORDER BY ?s`,
    );
    expect(answer.results.bindings.map((row) => row.s?.value)).toEqual([
      'https://example.org/c/2',
      'https://example.org/c/3',
    ]);
    expect((await readdir(virtuoso.dir)).filter((name) => name.startsWith('load-'))).toEqual([]);
  });

  it('applies ini overrides (ResultSetMaxRows = 3 caps answers)', async () => {
    const answer = await select(virtuoso, 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }');
    expect(answer.results.bindings).toHaveLength(3);
  });

  it('rejects a syntax error with the loader message, and keeps loading afterwards', async () => {
    const failure = virtuoso.load(
      '<https://example.org/c/4> <https://example.org/p "broken .\n',
      graph,
    );
    await expect(failure).rejects.toMatchObject({
      code: 'load_failed',
      message: expect.stringMatching(/syntax error/i),
    });
    await virtuoso.load(`<https://example.org/c/5> <${rdfsLabel}> "Epsilon" .\n`, graph);
    const answer = await select(
      virtuoso,
      `ASK { <https://example.org/c/5> <${rdfsLabel}> "Epsilon" }`,
    );
    expect(answer).toMatchObject({ boolean: true });
  });

  it('refuses bad input with a clear error', async () => {
    await expect(virtuoso.load('<a> <b> <c> .', "https://example.org/g'); drop")).rejects.toSatisfy(
      (error) => VirtuosoError.isInstance(error) && error.code === 'invalid_input',
    );
    await expect(virtuoso.load('relative/graph.nt', graph)).rejects.toThrow(/does not exist/);
    await expect(virtuoso.load(join(dataDir, 'data.csv'), graph)).rejects.toThrow(/extension/);
  });

  it('runs SQL and reports SQL errors', async () => {
    const output = await virtuoso.sql(`SPARQL SELECT COUNT(*) FROM <${graph}> WHERE { ?s ?p ?o };`);
    expect(output).toMatch(/\b5\b/);
    await expect(virtuoso.sql('select nosuch from nothing;')).rejects.toMatchObject({
      code: 'sql_failed',
      message: expect.stringMatching(/No table nothing/),
    });
  });

  it('keeps a folder it was given, and reuses the database in it', async () => {
    const dir = join(dataDir, 'given');
    const first = await startVirtuoso({ dir });
    expect(first.dir).toBe(dir);
    await first.load(`<https://example.org/kept> <${rdfsLabel}> "Kept" .\n`, graph);
    await first.stop();
    expect(existsSync(join(dir, 'virtuoso.db'))).toBe(true);
    const second = await startVirtuoso({ dir });
    try {
      const answer = await select(
        second,
        `ASK { <https://example.org/kept> <${rdfsLabel}> "Kept" }`,
      );
      expect(answer).toMatchObject({ boolean: true });
    } finally {
      await second.stop();
    }
  }, 120_000);

  // Last of the shared instance's tests: it stops it (afterAll's stop() is then a no-op).
  it('stops: process gone, port closed, temp folder removed, idempotent', async () => {
    const { pid, dir, sparqlUrl } = virtuoso;
    expect(isAlive(pid)).toBe(true);
    await Promise.all([virtuoso.stop(), virtuoso.stop()]);
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(dir)).toBe(false);
    await expect(fetch(sparqlUrl)).rejects.toThrow();
    await expect(virtuoso.load('<a:b> <a:c> <a:d> .', graph)).rejects.toMatchObject({
      code: 'stopped',
    });
  });

  it('takes an orphaned server down when the starting process is killed', async () => {
    const script = fileURLToPath(new URL('./__fixtures__/orphan-virtuoso.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(out);
      });
      child.once('exit', (code) => reject(new Error(`fixture exited early with ${code}`)));
    });
    const { pid, dir } = JSON.parse(line) as { pid: number; dir: string };
    expect(isAlive(pid)).toBe(true);
    child.kill('SIGKILL');
    expect(await waitUntil(() => !isAlive(pid), 20_000)).toBe(true);
    expect(await waitUntil(() => !existsSync(dir), 20_000)).toBe(true);
  }, 120_000);
});

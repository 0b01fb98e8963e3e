import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type KgApiProcess,
  startKgApiProcess,
  WRITER_KEY as writer,
} from './__fixtures__/kg-api-process';

// The bundled dist/dcg-kg.js, as npm installs it, against a real kg-api. `pnpm test` builds the
// packages first; without dist (a bare vitest run on a fresh clone) this skips and says so.
const bin = fileURLToPath(new URL('../dist/dcg-kg.js', import.meta.url));
const built = existsSync(bin);
if (!built) console.warn(`SKIPPED: @dcg/kg-cli (${bin} not built: run pnpm build)`);

function runBin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!built)('dcg-kg from the @dcg/kg-cli bundle', () => {
  let kg: KgApiProcess;
  let dir: string;
  let api: KgApiProcess;
  beforeAll(async () => {
    kg = await startKgApiProcess();
    ({ dir } = kg);
    api = kg;
  }, 60_000);
  afterAll(() => kg?.close());

  it('uploads a Turtle file and prints what kg-api stored', async () => {
    const file = join(dir, 'vocab.ttl');
    await writeFile(
      file,
      '@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n<https://ex.org/water> skos:prefLabel "Water"@en .\n',
    );
    const run = await runBin(['ingest', 'vocab', file, '--url', api.url, '--key', writer]);
    expect(run.stderr).toContain('processing done in');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      sourceId: 'vocab',
      triples: 1,
      format: 'turtle',
    });
  });

  it('converts JSON-LD in its worker thread (dist/rdf-worker-thread.js)', async () => {
    const file = join(dir, 'vocab.jsonld');
    await writeFile(
      file,
      JSON.stringify({
        '@id': 'https://ex.org/river',
        'http://www.w3.org/2004/02/skos/core#prefLabel': { '@value': 'River', '@language': 'en' },
      }),
    );
    const run = await runBin(['ingest', 'vocab', file, '--url', api.url, '--key', writer]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ triples: 1, format: 'json-ld' });
  });

  it('checks the syntax locally (line and column) and refuses a wrong key before sending', async () => {
    const broken = join(dir, 'broken.ttl');
    await writeFile(broken, '<https://ex.org/a> <https://ex.org/b> "open .\n');
    const syntax = await runBin(['ingest', 'vocab', broken, '--url', api.url, '--key', writer]);
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(/broken\.ttl:1:\d+: .*\(nothing was sent\)/);
    const key = await runBin([
      'ingest',
      'vocab',
      broken,
      '--url',
      api.url,
      '--key',
      'wrong-key-0123456789',
    ]);
    expect(key.code).toBe(1);
    expect(key.stderr).toContain('kg-api refused the key for an upload to "vocab"');
  });

  it('takes a directory and a glob, RDF/XML included, and uploads them as one graph', async () => {
    const tree = join(dir, 'tree');
    await mkdir(join(tree, 'owl'), { recursive: true });
    await writeFile(
      join(tree, 'owl', 'ontology.owl'),
      '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"><rdf:Description rdf:about="https://ex.org/Lake"><rdfs:label>Lake</rdfs:label></rdf:Description></rdf:RDF>',
    );
    await writeFile(join(dir, 'x1.nt'), '<https://ex.org/x1> <urn:p> "one" .\n');
    await writeFile(join(dir, 'x2.nt'), '<https://ex.org/x2> <urn:p> "two" .\n');
    const run = await runBin([
      'ingest',
      'vocab',
      tree,
      join(dir, 'x*.nt'),
      '--url',
      api.url,
      '--key',
      writer,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as { triples: number; files: string[] };
    expect(answer.triples).toBe(3);
    expect(answer.files).toHaveLength(3);
  });

  it('prints its version and usage', async () => {
    expect((await runBin(['--version'])).stdout).toBe('0.0.0\n');
    expect((await runBin(['--help'])).stdout).toMatch(
      /^Usage: dcg-kg ingest SOURCE FILE\|DIRECTORY\|GLOB/,
    );
  });
});

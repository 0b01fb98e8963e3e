import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deepRdfXml,
  type KgApiProcess,
  SKOS,
  startKgApiProcess,
  TURTLE,
  WRITER_KEY as WRITER,
} from './__fixtures__/kg-api-process';
import { runCli } from './cli';

function capture() {
  let text = '';
  return {
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
    text: () => text,
  };
}

describe('dcg-kg ingest', () => {
  let kg: KgApiProcess;
  let dir: string;
  let api: KgApiProcess;
  beforeAll(async () => {
    kg = await startKgApiProcess([
      {
        id: 'upstream-only',
        name: 'upstream-only',
        baseUrl: 'http://127.0.0.1:9',
        modes: { ingestion: { enabled: false }, passthrough: { enabled: true } },
      },
    ]);
    ({ dir } = kg);
    api = kg;
  }, 60_000);
  afterAll(() => kg?.close());

  it('uploads a file with progress and reports the result', async () => {
    const file = join(dir, 'vocab.nt');
    const lines = Array.from(
      { length: 30_000 },
      (_, i) => `<https://ex.org/t${i}> <${SKOS}prefLabel> "Term number ${i}" .`,
    );
    await writeFile(file, lines.join('\n'));
    const out = capture();
    const err = capture();
    const code = await runCli(
      ['ingest', 'vocab', file, '--url', api.url, '--key', WRITER],
      {},
      {
        out,
        err,
      },
    );
    expect(code, err.text()).toBe(0);
    expect(JSON.parse(out.text())).toMatchObject({
      sourceId: 'vocab',
      triples: 30_000,
      format: 'n-triples',
    });
    // Not a terminal: each tenth of the progress is one line, 100 % once (not again at the end).
    const progress = err.text().split('\n');
    expect(progress.filter((line) => line.startsWith('upload 100%'))).toHaveLength(1);
    expect(progress.filter((line) => /^check vocab\.nt 100%/.test(line))).toHaveLength(1);
    expect(new Set(progress).size).toBe(progress.length);
    // While kg-api parses and stores the upload, the wait is shown, then how long it took.
    expect(err.text()).toMatch(
      /upload 100%[^\n]*\nprocessing: waiting for kg-api\n(.*\n)*processing done in \d+\.\d s\n/,
    );
    const search = await fetch(`${api.url}/v1/search/query?term=term%20number%2029999`);
    expect(((await search.json()) as { results: string[] }).results[0]).toBe(
      'https://ex.org/t29999',
    );
  });

  it('reports a syntax error with file, line and column, sending nothing', async () => {
    const file = join(dir, 'broken.ttl');
    await writeFile(file, `${TURTLE}\nex:x skos:prefLabel "open .\n`);
    const err = capture();
    const code = await runCli(
      ['ingest', 'vocab', file, '--url', api.url, '--key', WRITER],
      {},
      {
        out: capture(),
        err,
      },
    );
    expect(code).toBe(1);
    expect(err.text()).toMatch(/broken\.ttl:7:\d+: .*nothing was sent/);
    // In GitHub Actions, also an annotation on the line of the file.
    const annotated = capture();
    await runCli(
      ['ingest', 'vocab', file, '--url', api.url, '--key', WRITER],
      { GITHUB_ACTIONS: 'true' },
      { out: capture(), err: annotated },
    );
    expect(annotated.text()).toMatch(
      new RegExp(
        `\\n::error file=${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},line=7,col=\\d+,title=dcg-kg::broken\\.ttl:7:`,
      ),
    );
  });

  it.each([
    ['empty.ttl', ''],
    ['empty.nt', ''],
    ['empty.nq', '\n'],
    ['empty.trig', ''],
    ['prefixes-only.ttl', `@prefix skos: <${SKOS}> .\n# nothing else\n`],
    ['config.json', '{"server": {"port": 8080}}'],
  ])('refuses %s (no triples) with exit code 1, sending nothing', async (name, content) => {
    const before = (await (await fetch(`${api.url}/v1/sources/vocab/graph`)).json()) as {
      triples: number;
      updatedAt?: string;
    };
    const file = join(dir, name);
    await writeFile(file, content);
    const err = capture();
    const code = await runCli(
      ['ingest', 'vocab', file, '--url', api.url, '--key', WRITER],
      {},
      { out: capture(), err },
    );
    expect(code).toBe(1);
    expect(err.text()).toMatch(
      new RegExp(`${name.replace('.', '\\.')} holds no triples.*nothing was sent`),
    );
    if (content === '') expect(err.text()).toMatch(/the file is empty/);
    const after = await (await fetch(`${api.url}/v1/sources/vocab/graph`)).json();
    expect(after).toEqual(before);
  });

  it('refuses RDF/XML nested too deep, or with entities that expand too far, at its line and column', async () => {
    const deep = join(dir, 'deep.rdf');
    await writeFile(deep, deepRdfXml(50_000));
    const laughs = join(dir, 'laughs.rdf');
    const levels = Array.from({ length: 9 }, (_, i) =>
      i === 0 ? '<!ENTITY e0 "lol">' : `<!ENTITY e${i} "${`&e${i - 1};`.repeat(10)}">`,
    );
    await writeFile(
      laughs,
      `<?xml version="1.0"?>\n<!DOCTYPE rdf:RDF [\n${levels.join('\n')}\n]>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="urn:a"><rdf:value>&e8;</rdf:value></rdf:Description></rdf:RDF>\n`,
    );
    for (const [file, message] of [
      [deep, /deep\.rdf:2:\d+: elements are nested more than 128 levels deep \(nothing was sent\)/],
      [
        laughs,
        /laughs\.rdf:8:1: entity e5 expands to more than 65536 characters \(nothing was sent\)/,
      ],
    ] as const) {
      const err = capture();
      const code = await runCli(
        ['ingest', 'vocab', file, '--url', api.url, '--key', WRITER],
        {},
        { out: capture(), err },
      );
      expect(code).toBe(1);
      expect(err.text()).toMatch(message);
    }
  });

  it('refuses a file that is not UTF-8 with the byte, sending nothing', async () => {
    const file = join(dir, 'latin1.nt');
    const text = '<https://ex.org/a> <https://ex.org/b> "caf';
    await writeFile(
      file,
      Buffer.concat([Buffer.from(text), Buffer.from([0xe9]), Buffer.from('" .\n')]),
    );
    const err = capture();
    const code = await runCli(
      ['ingest', 'vocab', file, '--url', api.url, '--key', WRITER],
      {},
      { out: capture(), err },
    );
    expect(code).toBe(1);
    expect(err.text()).toMatch(`latin1.nt: not valid UTF-8 at byte ${text.length}`);
  });

  it('reports a refusal of the server', async () => {
    const file = join(dir, 'ok.ttl');
    await writeFile(file, TURTLE);
    const err = capture();
    const code = await runCli(
      ['ingest', 'vocab', file, '--url', api.url],
      {},
      { out: capture(), err },
    );
    expect(code).toBe(1);
    expect(err.text()).toMatch(/401/);
  });

  it('checks the source and the key before the file is read or sent', async () => {
    const missingFile = join(dir, 'not-read.ttl');
    const run = async (args: string[]) => {
      const err = capture();
      const code = await runCli(
        ['ingest', ...args, missingFile, '--url', api.url],
        {},
        { out: capture(), err },
      );
      return { code, err: err.text() };
    };
    const wrongKey = await run(['vocab', '--key', 'not-the-key-0123456789']);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.err).toMatch(
      /^dcg-kg: kg-api refused the key for an upload to "vocab" \(nothing was sent\): 401 /,
    );
    const noKey = await run(['vocab']);
    expect(noKey.err).toContain('pass --key or set DCG_KG_API_KEY');
    const unknown = await run(['nope', '--key', WRITER]);
    expect(unknown.err).toBe(
      `dcg-kg: kg-api at ${api.url} has no source "nope" (its sources: vocab, upstream-only)\n`,
    );
    const closed = await run(['upstream-only', '--key', WRITER]);
    expect(closed.err).toContain('source "upstream-only" does not take uploads');
    // The checks changed nothing: the graph of vocab is still the one uploaded above.
    const info = await fetch(`${api.url}/v1/sources/vocab/graph`);
    expect(((await info.json()) as { triples: number }).triples).toBe(30_000);
  });

  it('uploads the RDF files of a directory and of a glob together, as one graph', async () => {
    const tree = join(dir, 'tree');
    await mkdir(join(tree, 'nested'), { recursive: true });
    await writeFile(join(tree, 'a.ttl'), `<https://ex.org/alder> <${SKOS}prefLabel> "Alder" .`);
    await writeFile(
      join(tree, 'nested', 'b.nt'),
      `<https://ex.org/birch> <${SKOS}prefLabel> "Birch" .\n`,
    );
    await writeFile(
      join(tree, 'nested', 'c.rdf'),
      `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:skos="${SKOS}"><rdf:Description rdf:about="https://ex.org/cedar"><skos:prefLabel>Cedar</skos:prefLabel></rdf:Description></rdf:RDF>`,
    );
    await writeFile(join(tree, 'notes.txt.bak'), 'not RDF, left out');
    await mkdir(join(dir, 'more'), { recursive: true });
    await writeFile(
      join(dir, 'more', 'd.ttl'),
      `<https://ex.org/dogwood> <${SKOS}prefLabel> "Dogwood" .`,
    );
    await writeFile(join(dir, 'more', 'e.ttl'), `<https://ex.org/elm> <${SKOS}prefLabel> "Elm" .`);
    const out = capture();
    const err = capture();
    const code = await runCli(
      ['ingest', 'vocab', 'tree', 'more/*.ttl', 'tree/a.ttl', '--url', api.url, '--key', WRITER],
      { INIT_CWD: dir },
      { out, err },
    );
    expect(code, err.text()).toBe(0);
    expect(JSON.parse(out.text())).toMatchObject({
      triples: 5,
      format: 'n-triples',
      files: ['more/d.ttl', 'more/e.ttl', 'tree/a.ttl', 'tree/nested/b.nt', 'tree/nested/c.rdf'],
    });
    for (const term of ['alder', 'birch', 'cedar', 'dogwood', 'elm']) {
      const search = await fetch(`${api.url}/v1/search/query?term=${term}`);
      expect(((await search.json()) as { results: string[] }).results).toEqual([
        `https://ex.org/${term}`,
      ]);
    }
  });

  it('sends nothing when a pattern matches no file or one file of many is broken', async () => {
    const run = async (...inputs: string[]) => {
      const err = capture();
      const code = await runCli(
        ['ingest', 'vocab', ...inputs, '--url', api.url, '--key', WRITER],
        { INIT_CWD: dir },
        { out: capture(), err },
      );
      return { code, err: err.text() };
    };
    const none = await run('nowhere/**/*.ttl');
    expect(none).toMatchObject({
      code: 2,
      err: 'dcg-kg: nowhere/**/*.ttl: the pattern matches no file\n',
    });
    await mkdir(join(dir, 'mixed'), { recursive: true });
    await writeFile(
      join(dir, 'mixed', 'good.ttl'),
      `<https://ex.org/fir> <${SKOS}prefLabel> "Fir" .`,
    );
    await writeFile(join(dir, 'mixed', 'worse.ttl'), '<https://ex.org/fir> <urn:p> "open .\n');
    const broken = await run('mixed');
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/mixed\/worse\.ttl:1:\d+: .*nothing was sent/);
    const empty = await mkdtemp(join(dir, 'empty-'));
    expect((await run(empty)).err).toMatch(/the directory holds no RDF file/);
    const search = await fetch(`${api.url}/v1/search/query?term=fir`);
    expect(((await search.json()) as { results: string[] }).results).toEqual([]);
  });

  it('prints its version and the help of ingest', async () => {
    for (const argv of [['--version'], ['-V']]) {
      const out = capture();
      expect(await runCli(argv, {}, { out, err: capture() })).toBe(0);
      expect(out.text()).toMatch(/^\d+\.\d+\.\d+\n$/);
    }
    for (const argv of [['ingest', '--help'], ['-h'], ['help']]) {
      const out = capture();
      expect(await runCli(argv, {}, { out, err: capture() })).toBe(0);
      expect(out.text()).toMatch(/^Usage: dcg-kg ingest SOURCE FILE\|DIRECTORY\|GLOB/);
    }
  });

  it('exits 2 when it could not run: a file that cannot be read, kg-api unreachable', async () => {
    const run = async (args: string[]) => {
      const err = capture();
      const code = await runCli(
        ['ingest', 'vocab', ...args],
        { INIT_CWD: dir },
        {
          out: capture(),
          err,
        },
      );
      return { code, err: err.text() };
    };
    expect(await run(['missing.ttl', '--url', api.url, '--key', WRITER])).toEqual({
      code: 2,
      err: 'dcg-kg: cannot read missing.ttl: no such file or directory\n',
    });
    await writeFile(join(dir, 'reachable.ttl'), TURTLE);
    const unreachable = await run(['reachable.ttl', '--url', 'http://127.0.0.1:9']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toMatch(/^dcg-kg: cannot reach kg-api at http:\/\/127\.0\.0\.1:9: /);
  });

  it('prints its help on stderr and exits 2 when run with no arguments', async () => {
    const out = capture();
    const err = capture();
    expect(await runCli([], {}, { out, err })).toBe(2);
    expect(out.text()).toBe('');
    expect(err.text()).toMatch(/^Usage: dcg-kg ingest SOURCE FILE\|DIRECTORY\|GLOB/);
    expect(err.text()).not.toContain('unknown command');
    expect(err.text()).toContain('Exit codes: 0 uploaded; 1 refused');
  });

  it('explains its usage on bad arguments', async () => {
    const err = capture();
    expect(await runCli(['ingest', 'vocab'], {}, { out: capture(), err })).toBe(2);
    expect(err.text()).toMatch(/Usage: dcg-kg ingest SOURCE FILE\|DIRECTORY\|GLOB/);
  });

  it('runs as the dcg-kg executable', async () => {
    const file = join(dir, 'small.ttl');
    await writeFile(file, TURTLE);
    // From source, as `pnpm dcg-kg` runs it in the workspace.
    const entry = fileURLToPath(new URL('./dcg-kg.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@dcg/source', '--import', 'tsx', entry, 'ingest', 'vocab', file],
      {
        env: { ...process.env, DCG_KG_URL: api.url, DCG_KG_API_KEY: WRITER },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ triples: 6, format: 'turtle' });
  });
});

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR, loadCorpus } from './__fixtures__/corpus';
import { type CliIo, EXIT, run } from './cli-run';
import { toDraft07JsonSchema } from './json-schemas';

/** Real files, in-memory stdin and captured output. */
function memoryIo(stdin = ''): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (text: string) => {
      io.out += text;
    },
    stderr: (text: string) => {
      io.err += text;
    },
    readFile: (path: string) => readFile(path, 'utf8'),
    readStdin: async () => stdin,
  };
  return io;
}

const corpus = loadCorpus();

describe('dcg-contract validate on every corpus file', () => {
  it.each(corpus)('$file → exit $valid', async (c) => {
    const io = memoryIo();
    const code = await run(['validate', '--kind', c.kind, '--format', 'json', c.path], io);
    expect(code).toBe(c.valid ? EXIT.valid : EXIT.invalid);
    const report = JSON.parse(io.out) as {
      valid: boolean;
      files: Array<{
        file: string;
        valid: boolean;
        issues: Array<{ code: string; path: string; message: string }>;
      }>;
    };
    expect(report.valid).toBe(c.valid);
    const issues = report.files[0]?.issues ?? [];
    expect(issues.map(({ path, message }) => ({ path, message }))).toEqual(c.errors ?? []);
    for (const issue of issues) expect(issue.code).toMatch(/^[a-z_]+$/);
    expect(io.err).toBe('');
  });
});

describe('dcg-contract validate', () => {
  const bad = corpus.find((c) => c.file === 'details/invalid-rule1-nested.json')!;
  const good = corpus.find((c) => c.file === 'details/valid-great-expectations.json')!;

  it('prints each problem with its JSON path in text form', async () => {
    const io = memoryIo();
    expect(await run(['validate', '--kind', 'details', good.path, bad.path], io)).toBe(
      EXIT.invalid,
    );
    expect(io.out).toBe(
      `✓ ${good.path}: valid details\n✗ ${bad.path}: 1 problem\n` +
        '  $.results.root[0].children[1]: a validation record has exactly one of `compliant` and `children`: it has neither\n',
    );
  });

  it('reads YAML and JSON from stdin with "-"', async () => {
    const yaml = memoryIo('results:\n  root:\n    - key: schema\n      compliant: true\n');
    expect(await run(['validate', '--kind=details', '-'], yaml)).toBe(EXIT.valid);
    expect(yaml.out).toBe('✓ <stdin>: valid details\n');
    const json = memoryIo('[]');
    expect(await run(['validate', '--kind', 'submission', '-'], json)).toBe(EXIT.invalid);
    expect(json.out).toContain('$: the body must be an array with exactly one evaluation result');
  });

  it('answers an unparseable document as invalid, with where it broke', async () => {
    const io = memoryIo('results: [\n');
    expect(await run(['validate', '--kind', 'details', '-'], io)).toBe(EXIT.invalid);
    expect(io.out).toMatch(/\$: the document is not valid YAML at line \d+, column \d+/);
  });

  describe('with files of its own', () => {
    let folder = '';
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'dcg-contract-'));
    });
    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    it('answers broken JSON as invalid, naming the problem', async () => {
      const file = join(folder, 'broken.json');
      await writeFile(file, '{"results": [');
      const io = memoryIo();
      expect(await run(['validate', '--kind', 'details', file], io)).toBe(EXIT.invalid);
      expect(io.out).toMatch(
        /^✗ .*broken\.json: 1 problem\n {2}\$: the document is not valid JSON: /,
      );
    });

    it('exits 2 for a folder given as FILE', async () => {
      const io = memoryIo();
      expect(await run(['validate', '--kind', 'details', folder], io)).toBe(EXIT.usage);
      expect(io.out).toContain(`cannot read ${folder}: is a directory`);
    });
  });

  it('exits 2 for an unreadable file and still reports the others', async () => {
    const io = memoryIo();
    const missing = join(CORPUS_DIR, 'nope.json');
    const code = await run(
      ['validate', '--kind', 'details', '--format', 'json', good.path, missing],
      io,
    );
    expect(code).toBe(EXIT.usage);
    const report = JSON.parse(io.out) as { files: Array<{ valid: boolean; issues: unknown[] }> };
    expect(report.files[0]?.valid).toBe(true);
    expect(report.files[1]?.issues).toEqual([
      {
        code: 'unreadable',
        segments: [],
        path: '$',
        message: `cannot read ${missing}: no such file`,
      },
    ]);
  });

  it('validates against any published schema by name', async () => {
    const io = memoryIo('status: DONE\nresult: ""\ninfo: null\n');
    expect(await run(['validate', '--kind', 'provisioning-status', '-'], io)).toBe(EXIT.invalid);
    expect(io.out).toContain(
      '$.status: Invalid option: expected one of "RUNNING"|"COMPLETED"|"FAILED"',
    );
    const ok = memoryIo('status: COMPLETED\nresult: ""\ninfo: null\n');
    expect(await run(['validate', '--kind', 'provisioning-status', '-'], ok)).toBe(EXIT.valid);
  });

  it.each([
    [['validate', good.path], 'validate needs --kind'],
    [
      ['validate', '--kind', 'policy', good.path],
      '--kind must be one of details, submission, template, descriptor',
    ],
    [['validate', '--kind', 'details'], 'validate needs at least one FILE'],
    [
      ['validate', '--kind', 'details', '--format', 'xml', good.path],
      '--format must be text or json',
    ],
    [['validate', '--strict', good.path], 'unknown option --strict'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [[], 'missing command'],
  ])('exits 2 on usage errors: %j', async (argv, message) => {
    const io = memoryIo();
    expect(await run(argv, io)).toBe(EXIT.usage);
    expect(io.err).toContain(message);
    expect(io.err).toContain('Usage:');
    expect(io.err).not.toMatch(/\n\s+at /);
  });
});

describe('dcg-contract targets', () => {
  const scenario = (name: string) => corpus.find((c) => c.file === `descriptor/${name}.yaml`)!;

  it.each(['a5-root-only', 'a5-distributed', 'a5-independent'])(
    'prints the A5 targets of %s',
    async (name) => {
      const c = scenario(name);
      const io = memoryIo();
      expect(await run(['targets', '--format', 'json', c.path], io)).toBe(EXIT.valid);
      const targets = (
        JSON.parse(io.out) as Array<{ resourceId: string; resultKeys: string[] }>
      ).map(({ resourceId, resultKeys }) => ({ resourceId, resultKeys }));
      expect(targets).toEqual(c.targets);
    },
  );

  it('prints text and narrows to one guardian, also from a COMPONENT_DESCRIPTOR payload', async () => {
    const c = scenario('a5-independent');
    const text = memoryIo();
    await run(['targets', c.path], text);
    expect(text.out).toBe(
      'urn:dmb:cmp:finance:invoices:0:orders-port\n  results keys: root\n' +
        'urn:dmb:cmp:finance:invoices:0:customers-port\n  results keys: root\n',
    );
    const system = await readFile(c.path, 'utf8');
    const payload = `componentIdToProvision: urn:dmb:cmp:finance:invoices:0:guardian\ndataProduct:\n${system
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n')}`;
    const io = memoryIo(payload);
    expect(await run(['targets', '--format', 'json', '-'], io)).toBe(EXIT.valid);
    expect((JSON.parse(io.out) as unknown[]).length).toBe(2);
    const none = memoryIo();
    const rootOnly = scenario('a5-root-only');
    // The guardian of a5-root-only guards the parent contract only.
    expect(
      await run(
        ['targets', '--guardian', 'urn:dmb:cmp:finance:invoices:0:guardian', rootOnly.path],
        none,
      ),
    ).toBe(EXIT.valid);
    expect(none.out).toBe('urn:dmb:cmp:finance:invoices:0:contract\n  results keys: root\n');
  });

  it('exits 1 for an invalid descriptor and 2 for a missing file', async () => {
    const invalid = corpus.find((c) => c.file === 'descriptor/invalid-missing-kind.json')!;
    const io = memoryIo();
    expect(await run(['targets', invalid.path], io)).toBe(EXIT.invalid);
    expect(io.out).toContain('$.kind: is required (expected string)');
    const missing = memoryIo();
    expect(await run(['targets', '/nonexistent/descriptor.yaml'], missing)).toBe(EXIT.usage);
    expect(missing.err).toContain('cannot read /nonexistent/descriptor.yaml: no such file');
  });
});

describe('dcg-contract schema', () => {
  it('prints the generated JSON Schema', async () => {
    const io = memoryIo();
    expect(await run(['schema', 'result-details'], io)).toBe(EXIT.valid);
    expect(JSON.parse(io.out)).toEqual(toDraft07JsonSchema('result-details'));
  });

  it('exits 2 for an unknown name, listing the known ones', async () => {
    const io = memoryIo();
    expect(await run(['schema', 'policy'], io)).toBe(EXIT.usage);
    expect(io.err).toContain('unknown schema "policy"; known: data-contract-guardian');
  });

  it('prints help', async () => {
    const io = memoryIo();
    expect(await run(['--help'], io)).toBe(EXIT.valid);
    expect(io.out).toContain('dcg-contract validate --kind details|submission|template|descriptor');
  });
});

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR, loadCorpus } from './__fixtures__/corpus';
import { expandPaths } from './cli-node-io';
import { type CliIo, EXIT, run } from './cli-run';
import { toDraft07JsonSchema } from './json-schemas';

/** Real files, in-memory stdin and captured output. */
function memoryIo(
  stdin = '',
  env: Record<string, string> = {},
): CliIo & { out: string; err: string } {
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
    expandPaths,
    env,
    version: '1.2.3',
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
    const issues = report.files[0]?.issues as { code: string; path: string; message: string }[];
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
        /^✗ .*broken\.json: 1 problem\n {2}\$: the document is not valid JSON at line 1, column 14: /,
      );
    });

    it('exits 2 for a folder without JSON or YAML files', async () => {
      const empty = join(folder, 'empty');
      await mkdir(empty);
      const io = memoryIo();
      expect(await run(['validate', '--kind', 'details', empty], io)).toBe(EXIT.usage);
      expect(io.err).toContain(`no JSON or YAML file matches ${empty}`);
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
    [['validate', '--kind', 'details', '--frob', good.path], "Unknown option '--frob'"],
    [
      ['validate', '--kind', 'details', '--strict=yes', good.path],
      "Option '--strict' does not take an argument",
    ],
    [['validate', good.path, '--kind'], "Option '--kind <value>' argument missing"],
    [['validate', '--kind', '--strict', good.path], "Option '--kind' argument is ambiguous"],
    [['frobnicate'], 'unknown command "frobnicate"'],
  ])('exits 2 on usage errors: %j', async (argv, message) => {
    const io = memoryIo();
    expect(await run(argv, io)).toBe(EXIT.usage);
    expect(io.err).toContain(message);
    expect(io.err).toContain('Usage:');
    expect(io.err).not.toMatch(/\n\s+at /);
  });
});

describe('dcg-contract with no arguments', () => {
  it('prints its usage on stderr and exits 2, as dcg-guardian and dcg-kg do', async () => {
    const io = memoryIo();
    expect(await run([], io)).toBe(EXIT.usage);
    expect(io.out).toBe('');
    expect(io.err).toMatch(/^Usage:\n {2}dcg-contract validate --kind/);
    expect(io.err).toContain('Exit codes: 0 valid, 1 invalid, 2 usage error or unreadable file');
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

describe('dcg-contract help and version', () => {
  it.each([
    ['validate', '--help'],
    ['validate', '-h'],
    ['help', 'validate'],
  ])('prints the help of validate for %j %j', async (...argv) => {
    const io = memoryIo();
    expect(await run(argv, io)).toBe(EXIT.valid);
    expect(io.out).toMatch(/^Usage: dcg-contract validate --kind KIND/);
    expect(io.out).toContain('--strict');
    expect(io.err).toBe('');
  });

  it.each([['targets'], ['schema']])('prints the help of %s', async (command) => {
    const io = memoryIo();
    expect(await run([command, '--help'], io)).toBe(EXIT.valid);
    expect(io.out).toMatch(new RegExp(`^Usage: dcg-contract ${command} `));
  });

  it('prints the version with --version, -V and version', async () => {
    for (const flag of ['--version', '-V', 'version']) {
      const io = memoryIo();
      expect(await run([flag], io)).toBe(EXIT.valid);
      expect(io.out).toBe('1.2.3\n');
    }
  });
});

describe('dcg-contract validate, files of a project', () => {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'dcg-contract-tree-'));
    await mkdir(join(folder, 'contracts', 'nested'), { recursive: true });
    await mkdir(join(folder, 'contracts', 'node_modules'), { recursive: true });
    const details = 'results:\n  root:\n    - key: schema\n      compliant: true\n';
    await writeFile(join(folder, 'contracts', 'a.yaml'), details);
    await writeFile(join(folder, 'contracts', 'nested', 'b.json'), JSON.stringify({ results: {} }));
    await writeFile(join(folder, 'contracts', 'nested', 'notes.txt'), 'not a document');
    await writeFile(join(folder, 'contracts', 'node_modules', 'c.json'), '{');
    // Line 3, column 11: the value after "key" is missing.
    await writeFile(join(folder, 'broken.json'), '{\n  "results": {\n    "key": }\n}\n');
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('takes a folder: its JSON and YAML files, nested ones too, not node_modules', async () => {
    const io = memoryIo();
    const contracts = join(folder, 'contracts');
    expect(await run(['validate', '--kind', 'details', contracts], io)).toBe(EXIT.valid);
    expect(io.out).toBe(
      `✓ ${join(contracts, 'a.yaml')}: valid details\n✓ ${join(contracts, 'nested', 'b.json')}: valid details\n`,
    );
  });

  it('takes a glob, and exits 2 for one that matches nothing', async () => {
    const io = memoryIo();
    const pattern = `${folder}/contracts/**/*.json`;
    expect(await run(['validate', '--kind', 'details', pattern], io)).toBe(EXIT.valid);
    expect(io.out).toBe(`✓ ${join(folder, 'contracts', 'nested', 'b.json')}: valid details\n`);
    const none = memoryIo();
    expect(await run(['validate', '--kind', 'details', `${folder}/*.yml`], none)).toBe(EXIT.usage);
    expect(none.err).toContain(`no JSON or YAML file matches ${folder}/*.yml`);
  });

  it('says on which line and column a JSON file breaks', async () => {
    const io = memoryIo();
    const file = join(folder, 'broken.json');
    expect(await run(['validate', '--kind', 'details', file], io)).toBe(EXIT.invalid);
    expect(io.out).toContain(
      '$: the document is not valid JSON at line 3, column 12: value expected',
    );
  });

  it('writes JUnit XML: a testcase per file, a failure per invalid one', async () => {
    const io = memoryIo();
    const code = await run(
      [
        'validate',
        '--kind',
        'details',
        '--format',
        'junit',
        join(folder, 'contracts'),
        join(folder, 'broken.json'),
      ],
      io,
    );
    expect(code).toBe(EXIT.invalid);
    expect(io.out).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="dcg-contract" tests="3" failures="1" errors="0">/,
    );
    expect(io.out.match(/<testcase /g)).toHaveLength(3);
    expect(io.out).toContain(
      '<failure message="1 problem" type="invalid">line 3, column 12: $: the document is not valid JSON at line 3, column 12: value expected</failure>',
    );
  });

  it('adds GitHub annotations in GitHub Actions, on the line of each problem', async () => {
    const file = join(folder, 'bad-details.yaml');
    await writeFile(file, 'results:\n  root:\n    - key: schema\n      compliant: maybe\n');
    const io = memoryIo('', { GITHUB_ACTIONS: 'true' });
    expect(await run(['validate', '--kind', 'details', '--format', 'json', file], io)).toBe(
      EXIT.invalid,
    );
    expect(JSON.parse(io.out).files[0].issues[0]).toMatchObject({
      path: '$.results.root[0].compliant',
      line: 4,
      column: 7,
    });
    expect(io.err).toMatch(
      new RegExp(
        `^::error file=${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},line=4,col=7,title=dcg-contract \\$.results.root\\[0\\].compliant::`,
      ),
    );
    const outside = memoryIo();
    await run(['validate', '--kind', 'details', file], outside);
    expect(outside.out).not.toContain('::error');
  });
});

describe('dcg-contract validate --kind descriptor', () => {
  const descriptor = (text: string) => memoryIo(text);

  it('does not call {"id":"x","kind":"banana"} a valid system descriptor', async () => {
    const io = descriptor('{"id":"x","kind":"banana"}');
    expect(await run(['validate', '--kind', 'descriptor', '-'], io)).toBe(EXIT.valid);
    expect(io.out).toBe(
      '! <stdin>: descriptor with 2 warnings\n' +
        '  $.id: warning: id "x" is not a URN (such as urn:dmb:dp:finance:invoices:0)\n' +
        '  $: warning: no data contract: the descriptor has no components, so a guardian has nothing to monitor\n',
    );
    const strict = descriptor('{"id":"x","kind":"banana"}');
    expect(await run(['validate', '--kind', 'descriptor', '--strict', '-'], strict)).toBe(
      EXIT.invalid,
    );
    expect(strict.out).toMatch(/^✗ <stdin>: 2 problems\n/);
  });

  it('refuses an ODCS data contract given as a descriptor', async () => {
    const io = descriptor(
      'apiVersion: v3.0.2\nkind: DataContract\nid: orders\nstatus: active\nschema:\n  - name: orders\n',
    );
    expect(await run(['validate', '--kind', 'descriptor', '-'], io)).toBe(EXIT.invalid);
    expect(io.out).toContain('$: an Open Data Contract Standard document (kind DataContract');
  });

  it('warns about a misspelled key, and targets says why there is no data contract', async () => {
    const text =
      'id: urn:dmb:dp:finance:invoices:0\nkind: dataproduct\ncompnents:\n  - id: urn:dmb:cmp:finance:invoices:0:c\n    __dataContractEnabled: true\n';
    const io = descriptor(text);
    expect(await run(['validate', '--kind', 'descriptor', '-'], io)).toBe(EXIT.valid);
    expect(io.out).toContain(
      '  $.compnents: warning: unknown key "compnents" (did you mean "components"?)\n',
    );
    const targets = descriptor(text);
    expect(await run(['targets', '-'], targets)).toBe(EXIT.valid);
    expect(targets.out).toBe('no data contracts\n');
    expect(targets.err).toContain('warning: -: $.compnents: unknown key "compnents"');
    expect(targets.err).toContain('no data contract: the descriptor has no components');
    const strict = descriptor(text);
    expect(await run(['targets', '--strict', '-'], strict)).toBe(EXIT.invalid);
    expect(strict.err).toContain('error: -: $.compnents');
  });

  it('gives a real descriptor no warning', async () => {
    const c = corpus.find((entry) => entry.file === 'descriptor/a5-distributed.yaml')!;
    const io = memoryIo();
    expect(await run(['validate', '--kind', 'descriptor', '--strict', c.path], io)).toBe(
      EXIT.valid,
    );
    expect(io.out).toBe(`✓ ${c.path}: valid descriptor\n`);
  });
});

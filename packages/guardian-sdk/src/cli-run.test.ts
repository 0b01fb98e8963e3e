import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from './cli-run';

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    readFile: (p) => readFile(p, 'utf8'),
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env,
    version: '1.2.3',
  };
  return { value, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'dcg-cli-'));
const runFile = join(dir, 'run.json');
writeFileSync(
  runFile,
  JSON.stringify({
    result: 'failed',
    checks: [
      { key: 'a', category: 'quality', model: 'orders', result: 'failed', reason: '3 nulls' },
    ],
  }),
);

describe('dcg-guardian convert datacontract-cli', () => {
  it('prints the submission and exits 1 for a violated run', async () => {
    const { value, out } = io();
    expect(
      await runCli(['convert', 'datacontract-cli', runFile, '--resource-id', 'urn:x'], value),
    ).toBe(1);
    const body = JSON.parse(out.join(''));
    expect(body[0].result.details.results.root[0].children[0].children[0]).toMatchObject({
      key: 'a',
      compliant: false,
      issues: ['3 nulls'],
    });
  });

  it('takes the resource id from the run when its dataContractId is a URN', async () => {
    writeFileSync(
      join(dir, 'urn.json'),
      JSON.stringify({ result: 'passed', dataContractId: 'urn:dmb:cmp:a:b:0:p', checks: [] }),
    );
    const { value, out } = io();
    expect(await runCli(['convert', 'datacontract-cli', join(dir, 'urn.json')], value)).toBe(0);
    expect(JSON.parse(out.join(''))[0].resource.id).toBe('urn:dmb:cmp:a:b:0:p');
    const missing = io();
    writeFileSync(
      join(dir, 'plain.json'),
      JSON.stringify({ result: 'passed', dataContractId: 'orders', checks: [] }),
    );
    expect(
      await runCli(['convert', 'datacontract-cli', join(dir, 'plain.json')], missing.value),
    ).toBe(2);
    expect(missing.err.join('')).toMatch(/--resource-id is required/);
  });

  it('a run whose checks did not run (result null) is converted, said on stderr, exits 2 and is never submitted', async () => {
    const fixtures = join(
      dirname(fileURLToPath(import.meta.url)),
      '__fixtures__',
      'datacontract-cli',
    );
    const refused = join(fixtures, 'connection-refused.json');
    const printed = io();
    expect(
      await runCli(
        ['convert', 'datacontract-cli', refused, '--resource-id', 'urn:x'],
        printed.value,
      ),
    ).toBe(2);
    expect(JSON.parse(printed.out.join(''))[0].resource.id).toBe('urn:x');
    expect(printed.err.join('')).toMatch(
      /^could not run: 5 of 6 checks have no result: Test Data Contract: connection to server/,
    );
    // --submit: nothing is sent (the URL is never called: nothing listens there).
    const submitted = io({ DCG_API_KEY: 'k' });
    const args = [
      '--submit',
      '--url',
      'http://127.0.0.1:1',
      '--policy',
      'p',
      '--environment',
      'qa',
    ];
    expect(
      await runCli(
        ['convert', 'datacontract-cli', refused, '--resource-id', 'urn:x', ...args],
        submitted.value,
      ),
    ).toBe(2);
    expect(submitted.err.join('')).toMatch(/; nothing was submitted\n$/);
    expect(submitted.err.join('')).not.toMatch(/network/);
    expect(submitted.out).toEqual([]);
    // dataContractId: null (the contract was never read): --resource-id is needed, then it converts.
    const missing = join(fixtures, 'file-missing.json');
    const without = io();
    expect(await runCli(['convert', 'datacontract-cli', missing], without.value)).toBe(2);
    expect(without.err.join('')).toMatch(/--resource-id is required/);
    const withId = io();
    expect(
      await runCli(
        ['convert', 'datacontract-cli', missing, '--resource-id', 'urn:x'],
        withId.value,
      ),
    ).toBe(2);
    expect(withId.err.join('')).toMatch(/^could not run: the data contract was never read/);
  });

  it('prints its version for --version and -V, its usage for --help and -h, and exits 0', async () => {
    for (const flag of ['--version', '-V']) {
      const { value, out, err } = io();
      expect(await runCli([flag], value)).toBe(0);
      expect(out.join('')).toBe('1.2.3\n');
      expect(err).toEqual([]);
    }
    for (const flag of ['--help', '-h']) {
      const { value, out, err } = io();
      expect(await runCli([flag], value)).toBe(0);
      expect(out.join('')).toMatch(/^usage: dcg-guardian convert datacontract-cli/);
      expect(out.join('')).toContain('dcg-guardian --version');
      expect(err).toEqual([]);
    }
  });

  it('prints its usage on stderr and exits 2 with no arguments, an unknown option or command', async () => {
    for (const argv of [
      [],
      ['--frobnicate'],
      ['inspect', 'run.json'],
      ['convert', 'x', 'run.json'],
    ]) {
      const { value, out, err } = io();
      expect(await runCli(argv, value), argv.join(' ')).toBe(2);
      expect(out).toEqual([]);
      expect(err.join('')).toMatch(/usage: dcg-guardian convert datacontract-cli/);
    }
    const unknown = io();
    await runCli(['convert', 'datacontract-cli', runFile, '--frobnicate'], unknown.value);
    expect(unknown.err.join('')).toMatch(/^dcg-guardian: Unknown option '--frobnicate'/);
    // A value that looks like an option is refused rather than taken as the resource id.
    const ambiguous = io();
    expect(
      await runCli(
        ['convert', 'datacontract-cli', runFile, '--resource-id', '--submit'],
        ambiguous.value,
      ),
    ).toBe(2);
  });

  it('exits 2 with a message for bad usage, a missing file and a document that is not a run', async () => {
    const a = io();
    expect(await runCli(['convert'], a.value)).toBe(2);
    expect(a.err.join('')).toMatch(/usage/);
    const b = io();
    expect(
      await runCli(
        ['convert', 'datacontract-cli', join(dir, 'nope.json'), '--resource-id', 'u'],
        b.value,
      ),
    ).toBe(2);
    expect(b.err.join('')).toMatch(/cannot read/);
    writeFileSync(join(dir, 'bad.json'), '{"result": 3}');
    const c = io();
    expect(
      await runCli(
        ['convert', 'datacontract-cli', join(dir, 'bad.json'), '--resource-id', 'u'],
        c.value,
      ),
    ).toBe(2);
    expect(c.err.join('')).toMatch(/invalid_argument: not a datacontract-cli test run/);
  });

  it('submits with --submit and the key from DCG_API_KEY', async () => {
    const seen: Array<{ auth: string | undefined; env: string | undefined }> = [];
    const app = new Hono().post(
      '/v1/computational-governance/policies/p1/evaluation-results',
      (c) => {
        seen.push({ auth: c.req.header('authorization'), env: c.req.query('environment') });
        return c.json({ seq: 1 }, 201);
      },
    );
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const port = (server.address() as { port: number }).port;
    const { value, out } = io({ DCG_API_KEY: 'secret' });
    const code = await runCli(
      [
        'convert',
        'datacontract-cli',
        runFile,
        '--resource-id',
        'urn:x',
        '--submit',
        '--url',
        `http://127.0.0.1:${port}`,
        '--policy',
        'p1',
        '--environment',
        'dev',
      ],
      value,
    );
    await new Promise<void>((r) => server.close(() => r()));
    expect(code).toBe(1);
    expect(seen).toEqual([{ auth: 'Bearer secret', env: 'dev' }]);
    expect(JSON.parse(out.join(''))).toMatchObject({ submitted: true, status: 201 });
    expect(readFileSync(runFile, 'utf8')).toContain('3 nulls');
  });
});

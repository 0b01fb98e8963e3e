import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startVocabKgApi,
  type VocabKgApi,
  WRITER_KEY,
} from '../apps/kg-api/src/__fixtures__/vocab-kg-api';

// The three dcg CLIs as a CI job runs them (the built bins, as npm installs them): one argument
// parser, one rule for no arguments and --help, one exit code for a file that cannot be read.
// `pnpm test` builds the packages first; without dist this skips and says so.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bins = {
  'dcg-contract': join(root, 'packages/contract-schema/dist/cli.js'),
  'dcg-guardian': join(root, 'packages/guardian-sdk/dist/cli.js'),
  'dcg-kg': join(root, 'packages/kg-cli/dist/dcg-kg.js'),
} as const;
type Cli = keyof typeof bins;
const missing = Object.values(bins).filter((bin) => !existsSync(bin));
if (missing.length > 0) console.warn(`SKIPPED: CLI style (${missing.join(', ')} not built)`);

function runBin(
  cli: Cli,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bins[cli], ...args],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr });
      },
    );
  });
}

describe.skipIf(missing.length > 0)('one CLI style: dcg-contract, dcg-guardian, dcg-kg', () => {
  let kg: VocabKgApi;
  beforeAll(async () => {
    kg = await startVocabKgApi({ prefix: 'cli-style-' });
  });
  afterAll(() => kg?.close());

  it.each(Object.keys(bins) as Cli[])(
    '%s with no arguments: usage on stderr, exit 2',
    async (cli) => {
      const run = await runBin(cli, []);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(new RegExp(`^usage:[\\s\\S]*${cli} `, 'i'));
      expect(run.stderr).not.toContain('unknown command');
    },
  );

  it.each(Object.keys(bins) as Cli[])('%s --help and -h: help on stdout, exit 0', async (cli) => {
    for (const flag of ['--help', '-h']) {
      const run = await runBin(cli, [flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^usage:/i);
      expect(run.stdout).toMatch(/exit codes: 0 /i);
      expect(run.stderr).toBe('');
    }
  });

  it.each(Object.keys(bins) as Cli[])('%s refuses an unknown option with exit 2', async (cli) => {
    const args = {
      'dcg-contract': ['validate', '--kind', 'details', '--frobnicate', 'x.json'],
      'dcg-guardian': ['convert', 'datacontract-cli', 'run.json', '--frobnicate'],
      'dcg-kg': ['ingest', 'vocab', 'x.ttl', '--frobnicate'],
    }[cli];
    const run = await runBin(cli, args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown option '--frobnicate'");
  });

  it('exits 2 for an input file that cannot be read, in all three', async () => {
    const nowhere = join(kg.dir, 'does-not-exist');
    const runs = {
      'dcg-contract': await runBin('dcg-contract', [
        'validate',
        '--kind',
        'details',
        `${nowhere}.json`,
      ]),
      'dcg-guardian': await runBin('dcg-guardian', [
        'convert',
        'datacontract-cli',
        `${nowhere}.json`,
        '--resource-id',
        'urn:x',
      ]),
      'dcg-kg': await runBin('dcg-kg', [
        'ingest',
        'vocab',
        `${nowhere}.ttl`,
        '--url',
        kg.api.url,
        '--key',
        WRITER_KEY,
      ]),
    };
    for (const [cli, run] of Object.entries(runs)) {
      expect({ cli, code: run.code }).toEqual({ cli, code: 2 });
      expect(`${run.stdout}${run.stderr}`).toMatch(/cannot read/);
    }
  });

  it('exits 1 when the checked thing fails, in all three', async () => {
    const details = join(kg.dir, 'details.json');
    await writeFile(details, JSON.stringify({ results: { root: [{}] } }));
    const broken = join(kg.dir, 'broken.ttl');
    await writeFile(broken, '<https://ex.org/a> <https://ex.org/b> "open .\n');
    const run = join(kg.dir, 'run.json');
    await writeFile(
      run,
      JSON.stringify({
        result: 'failed',
        checks: [{ key: 'a', category: 'quality', model: 'orders', result: 'failed' }],
      }),
    );
    expect((await runBin('dcg-contract', ['validate', '--kind', 'details', details])).code).toBe(1);
    expect(
      (
        await runBin('dcg-kg', [
          'ingest',
          'vocab',
          broken,
          '--url',
          kg.api.url,
          '--key',
          WRITER_KEY,
        ])
      ).code,
    ).toBe(1);
    expect(
      (await runBin('dcg-guardian', ['convert', 'datacontract-cli', run, '--resource-id', 'urn:x']))
        .code,
    ).toBe(1);
  });

  it('prints each progress line once when stderr is not a terminal (dcg-kg ingest), exit 0', async () => {
    const good = join(kg.dir, 'good.ttl');
    await writeFile(
      good,
      Array.from(
        { length: 200 },
        (_, i) => `<https://ex.org/s${i}> <https://ex.org/p> "o${i}" .`,
      ).join('\n'),
    );
    const run = await runBin('dcg-kg', [
      'ingest',
      'vocab',
      good,
      '--url',
      kg.api.url,
      '--key',
      WRITER_KEY,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
    // No carriage-return redraws (those are for terminals), and no line printed twice.
    expect(run.stderr).not.toContain('\r');
    expect(lines.length).toBeGreaterThan(1);
    expect(new Set(lines).size, run.stderr).toBe(lines.length);
    expect(lines.filter((line) => /^upload 100%/.test(line))).toHaveLength(1);
  });
});

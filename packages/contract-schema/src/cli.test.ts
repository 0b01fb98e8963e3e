import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from './__fixtures__/corpus';

// The built bin, as CI pipelines run it. `pnpm test` builds packages first; when dist is
// missing (a bare `vitest run` on a fresh clone) these tests skip and say so.
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js');
const built = existsSync(cli);
if (!built)
  console.warn(`[contract-schema] skipping dist/cli.js tests: ${cli} not built (run pnpm build)`);

function spawnCli(args: string[], input?: string) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', input, timeout: 20_000 });
}

describe.skipIf(!built)('dist/cli.js', () => {
  const corpus = loadCorpus();

  it('validates valid and invalid corpus files with exit 0 and 1', () => {
    const valid = corpus.filter((c) => c.kind === 'details' && c.valid).map((c) => c.path);
    const ok = spawnCli(['validate', '--kind', 'details', ...valid]);
    expect(ok.status).toBe(0);
    expect(ok.stdout.match(/✓/g)?.length).toBe(valid.length);
    const invalid = corpus.find((c) => c.file === 'submission/invalid-two-objects.json')!;
    const bad = spawnCli(['validate', '--kind', 'submission', '--format', 'json', invalid.path]);
    expect(bad.status).toBe(1);
    const issues = JSON.parse(bad.stdout).files[0].issues as { path: string; message: string }[];
    expect(issues.map(({ path, message }) => ({ path, message }))).toEqual(invalid.errors);
  });

  it('reads stdin and never prints a stack trace for bad input', () => {
    const result = spawnCli(['validate', '--kind', 'details', '-'], '{"results": ');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('not valid YAML');
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\n\s+at /);
    const usage = spawnCli(['validate', '--kind', 'nope', '-']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--kind must be one of');
    expect(usage.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints targets and schemas', () => {
    const scenario = corpus.find((c) => c.file === 'descriptor/a5-distributed.yaml')!;
    const targets = spawnCli(['targets', '--format', 'json', scenario.path]);
    expect(targets.status).toBe(0);
    expect(JSON.parse(targets.stdout)[0].resultKeys).toEqual(scenario.targets?.[0]?.resultKeys);
    const schema = spawnCli(['schema', 'evaluation-result-submission']);
    expect(schema.status).toBe(0);
    expect(JSON.parse(schema.stdout).maxItems).toBe(1);
  });
});

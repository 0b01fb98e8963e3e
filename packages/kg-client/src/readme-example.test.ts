import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caught } from './__fixtures__/caught';
import { kgApiPresent, type SpawnedKgApi, spawnKgApi } from './__fixtures__/spawn-kg-api';
import { createKgClient } from './create-kg-client';
import { KgProblemError } from './kg-client-error';

// The client as its README promises it, against the real kg-api with the demo vocabulary of
// `pnpm start` (DCG_DEMO=1): the README's example block runs as a consumer's script, an uncaught
// error ends such a script with one line, and kg-api's own query timeout is not retried.

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const workspaceRoot = join(packageDir, '..', '..');
const demoUrl = 'http://127.0.0.1:8081';

/** The first `ts` block of the README's "Example" section, as written. */
function readmeExample(): string {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Example'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ts block under "## Example"');
  return block;
}

/**
 * A consumer project: `@dcg/kg-client` in its node_modules (this package, resolved to `src/`
 * through the `@dcg/source` condition, so no build is needed) and tsx to run TypeScript.
 */
function consumerProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dcg-kg-client-consumer-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(dir, 'node_modules', '@dcg'), { recursive: true });
  symlinkSync(packageDir, join(dir, 'node_modules', '@dcg', 'kg-client'), 'dir');
  symlinkSync(
    realpathSync(join(workspaceRoot, 'node_modules', 'tsx')),
    join(dir, 'node_modules', 'tsx'),
    'dir',
  );
  return dir;
}

async function runScript(
  dir: string,
  name: string,
  code: string,
): Promise<{ status: number; stdout: string; stderr: string }> {
  const file = join(dir, name);
  await writeFile(file, code);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@dcg/source', '--import', 'tsx', file],
      { cwd: dir, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

if (!kgApiPresent()) console.warn('SKIPPED: README example (apps/kg-api is not in this checkout)');

describe.skipIf(!kgApiPresent())('@dcg/kg-client against the demo of pnpm start', () => {
  let demo: SpawnedKgApi;
  let impatient: SpawnedKgApi;
  let consumer: string;

  beforeAll(async () => {
    consumer = consumerProject();
    [demo, impatient] = await Promise.all([
      spawnKgApi({ sources: [] }, { DCG_DEMO: '1' }),
      spawnKgApi({ sources: [], sparql: { timeoutMs: 1, maxRows: 1_000_000 } }, { DCG_DEMO: '1' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([demo?.stop(), impatient?.stop()]);
    if (consumer) rmSync(consumer, { recursive: true, force: true });
  });

  it('runs the README example exactly as written (only the URL is the test kg-api)', async () => {
    const example = readmeExample();
    expect(example.split(demoUrl)).toHaveLength(2);
    const run = await runScript(consumer, 'example.ts', example.replace(demoUrl, demo.url));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('https://dcg.example.org/vocab/governance/data-contract');
    expect(run.stdout).toContain('Data contract An agreement between the producer');
    expect(run.stdout).toContain("label: { value: 'Accordo sul livello di servizio', lang: 'it' }");
  });

  it('ends a script on an uncaught error with one clear line (and its stack), not ky internals', async () => {
    const run = await runScript(
      consumer,
      'uncaught.mjs',
      `import { createKgClient } from '@dcg/kg-client';
const kg = createKgClient({ baseUrl: '${demo.url}' });
await kg.select('SELECT nonsense');
`,
    );
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
    const errorLines = lines.filter((line) => line.startsWith('KgProblemError'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(
      /^KgProblemError: HTTP 400 Query outside the supported SPARQL subset: SYNTAX_ERROR: /,
    );
    // `\bky\b`: ky's own frames and names, not a temporary folder name that happens to hold "ky".
    expect(run.stderr).not.toMatch(/HTTPError|Request \{|Response \{|\bky\b|Symbol\(/);
    // What follows the line: the stack, then the error's own members (code, status, problem).
    expect(run.stderr).toMatch(/\n {2}code: 'problem',\n {2}status: 400,\n {2}problem: \{/);
    expect(lines.length, run.stderr).toBeLessThan(40);

    // The same for a network error: its cause (fetch failed, ECONNREFUSED…) is in the message.
    const unreachable = await runScript(
      consumer,
      'unreachable.mjs',
      `import { createKgClient } from '@dcg/kg-client';
const kg = createKgClient({ baseUrl: 'http://127.0.0.1:9', retries: 0 });
await kg.search('water');
`,
    );
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(
      /\nKgNetworkError: cannot reach http:\/\/127\.0\.0\.1:9\/v1\/search\/query: fetch failed/,
    );
    expect(unreachable.stderr).not.toMatch(/HTTPError|Request \{|Response \{|options:/);
  });

  it("does not retry kg-api's own query timeout (503 without Retry-After)", async () => {
    let requests = 0;
    const client = createKgClient({
      baseUrl: impatient.url,
      retries: 2,
      fetch: (input, init) => {
        requests += 1;
        return fetch(input, init);
      },
    });
    const error = await caught(client.select('SELECT * { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }'));
    expect(error).toBeInstanceOf(KgProblemError);
    expect(error).toMatchObject({
      status: 503,
      problem: { type: 'urn:dcg:kg:query_timeout' },
    });
    expect(requests).toBe(1);
  });
});

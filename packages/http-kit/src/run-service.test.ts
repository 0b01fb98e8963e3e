import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// runService is about a process's life: run a real one.
const here = dirname(fileURLToPath(import.meta.url));
const tsx = join(here, '..', '..', '..', 'node_modules', '.bin', 'tsx');

function runScript(body: string, env: Record<string, string> = {}) {
  // The script lives in a temp folder (never beside the sources, where lint would see it).
  const dir = mkdtempSync(join(tmpdir(), 'run-service-'));
  const file = join(dir, 'service.mts'); // .mts: an ES module wherever it lies
  writeFileSync(file, body);
  const child = spawn(tsx, ['--conditions=@dcg/source', file], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    cwd: dir,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  return { child, exited, out: () => stdout, err: () => stderr };
}

const service = `
import { portFromEnv, runService, startHttpServer } from ${JSON.stringify(join(here, 'index.ts'))};
await runService({
  name: 'demo',
  start: async () => {
    const app = { fetch: () => new Response('hi') };
    const server = await startHttpServer(app, { port: portFromEnv(0) });
    return { service: server, listening: { docs: server.url + '/docs' } };
  },
});
`;

const slowService = `
import { runService, startHttpServer } from ${JSON.stringify(join(here, 'index.ts'))};
await runService({
  name: 'slow',
  start: async () => {
    const app = {
      fetch: async () => {
        await new Promise((r) => setTimeout(r, 800));
        return new Response('finished');
      },
    };
    const server = await startHttpServer(app, { port: 0 });
    return { service: server };
  },
});
`;

async function listeningUrl(run: ReturnType<typeof runScript>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = run
        .out()
        .split('\n')
        .find((l) => l.includes('"msg":"listening"'));
      if (found) {
        clearInterval(timer);
        resolve(JSON.parse(found).url);
      }
    }, 50);
    run.exited.then(() => reject(new Error(`exited early: ${run.err()}`)));
  });
}

describe('runService', () => {
  it('lets a request in flight finish after SIGTERM, then exits 0', async () => {
    const run = runScript(slowService);
    const url = await listeningUrl(run);
    const response = fetch(`${url}/slow`);
    await new Promise((r) => setTimeout(r, 200));
    run.child.kill('SIGTERM');
    const answered = await response;
    expect(answered.status).toBe(200);
    expect(answered.headers.get('connection')).toBe('close');
    expect(await answered.text()).toBe('finished');
    expect(await run.exited).toBe(0);
  });

  it('prints the listening line even when logs are silent, serves, and stops on SIGTERM', async () => {
    const run = runScript(service, { PORT: '0' });
    const line = await new Promise<{ url: string; docs: string }>((resolve, reject) => {
      const timer = setInterval(() => {
        const found = run
          .out()
          .split('\n')
          .find((l) => l.includes('"msg":"listening"'));
        if (found) {
          clearInterval(timer);
          resolve(JSON.parse(found));
        }
      }, 50);
      run.exited.then(() => reject(new Error(`exited early: ${run.err()}`)));
    });
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line.docs).toBe(`${line.url}/docs`);
    expect(await (await fetch(line.url)).text()).toBe('hi');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('exits 1 naming the bad variable, without a stack trace', async () => {
    const run = runScript(service, { PORT: 'eighty' });
    expect(await run.exited).toBe(1);
    expect(run.err()).toContain('PORT must be an integer between 0 and 65535, not "eighty"');
    expect(run.err()).not.toMatch(/\n\s+at /);
  });

  it('refuses an unknown LOG_LEVEL at start-up with one clear line', async () => {
    const run = runScript(service, { LOG_LEVEL: 'verbose' });
    expect(await run.exited).toBe(1);
    expect(run.err()).toContain(
      'demo: LOG_LEVEL must be one of debug, info, warn, error, silent; not "verbose"',
    );
    expect(run.err()).not.toMatch(/\n\s+at /);
    expect(run.out()).not.toContain('listening');
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Spawns `src/main.ts` as `pnpm start` does and resolves with its URL from the "listening" line. */
function spawnApp(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@dcg/source', '--import', 'tsx', 'src/main.ts'],
    {
      cwd: appDir,
      env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no listening line within 30 s:\n${out}`)),
      30_000,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, url: JSON.parse(line).url as string, output: () => out });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with ${code} before listening:\n${out}`));
    });
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve()
      : child.once('exit', () => resolve()),
  );

describe.each(['NORMAL', 'FULL'] as const)(
  'durability (SQLite synchronous=%s): acknowledged submissions survive kill -9',
  (synchronous) => {
    const dir = mkdtempSync(join(tmpdir(), 'governance-kill-'));
    const configFile = join(dir, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({ ...testConfig, storage: { sqlite: { synchronous } } }),
    );
    const env = { DCG_DATA_DIR: join(dir, 'data'), DCG_CONFIG: configFile };
    const children: ChildProcess[] = [];
    afterAll(async () => {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    it('finds every acknowledged result and the last one current after SIGKILL and restart', async () => {
      const first = await spawnApp(env);
      children.push(first.child);
      const policy = await request(`${first.url}/v1/computational-governance/policies`, {
        key: KEYS.admin,
        body: { id: 'durable', name: 'Durable', resourceType: 'dataproduct', trigger: 'passive' },
      });
      expect(policy.status).toBe(201);
      const contract = 'urn:dmb:cmp:durable:0:port';
      const acknowledged: number[] = [];
      let stop = false;
      // Keep submitting from several connections and kill the server in the middle of it.
      const workers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await request(
              `${first.url}/v1/computational-governance/policies/durable/evaluation-results?environment=production`,
              {
                key: KEYS.guardian,
                body: [
                  {
                    resource: { id: contract, descriptor: '' },
                    result: {
                      satisfiesPolicy: true,
                      details: { results: { root: [{ key: `w${w}-${i}`, compliant: true }] } },
                    },
                  },
                ],
              },
            );
            if (res.status === 201) acknowledged.push((await res.json()).seq);
          } catch {
            return; // the server is gone
          }
        }
      });
      await new Promise((r) => setTimeout(r, 700));
      first.child.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      await exited(first.child);
      expect(acknowledged.length).toBeGreaterThan(10);

      const second = await spawnApp(env);
      children.push(second.child);
      // Every page of the history (1 000 is the largest page).
      const stored = new Set<number>();
      let newest: { receivedAt: string } | undefined;
      for (let offset = 0; ; offset += 1000) {
        const page = await (
          await request(
            `${second.url}/v1/computational-governance/data-contracts/${encodeURIComponent(contract)}/evaluation-results?limit=1000&offset=${offset}`,
            { key: KEYS.reader },
          )
        ).json();
        newest ??= page.data[0];
        for (const h of page.data as Array<{ seq: number }>) stored.add(h.seq);
        if (offset + 1000 >= page.meta.pagination.total) break;
      }
      const lost = acknowledged.filter((seq) => !stored.has(seq));
      expect(lost).toEqual([]);
      const compliance = await (
        await request(
          `${second.url}/v1/marketplace/data-contracts/${encodeURIComponent(contract)}/compliance?environment=production`,
        )
      ).json();
      expect(compliance.evaluatedAt).toBe(newest?.receivedAt);
      expect(
        (
          await request(`${second.url}/v1/computational-governance/policies/durable`, {
            key: KEYS.reader,
          })
        ).status,
      ).toBe(200);
      second.child.kill('SIGTERM');
      await exited(second.child);
      // A graceful stop finishes closing the stores: their locks, journal and WAL are gone.
      expect(
        readdirSync(join(dir, 'data')).filter(
          (name) => name !== 'governance.db' && name !== 'embeddings.db',
        ),
      ).toEqual([]);
    });
  },
);

describe('start-up configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'governance-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops with a message naming an unknown or invalid key', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'provisioning:\n  pollIntervalMs: -5\n  retries: 3\n');
    const out = await spawnApp({ DCG_CONFIG: file, DCG_DATA_DIR: join(dir, 'data') }).catch(
      (e: Error) => e.message,
    );
    expect(out).toContain('provisioning.retries');
    expect(out).toContain('provisioning.pollIntervalMs');
    expect(out).toMatch(/exited with 1/);
  });

  it('stops with a clear message when the database cannot be opened', async () => {
    const out = await spawnApp({
      DCG_DATA_DIR: join(dir, 'data2'),
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere',
    }).catch((e: Error) => e.message);
    expect(out).toMatch(/exited with 1/);
    expect(out).toContain('Cannot open the PostgreSQL database');
  });
});

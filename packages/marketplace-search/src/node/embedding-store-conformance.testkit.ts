import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddingJob, EmbeddingStore, StoredEmbedding } from '../embedding-store';

const row = (
  systemId: string,
  model: string,
  values: number[],
  environment = 'production',
): StoredEmbedding => ({
  environment,
  systemId,
  model,
  dimensions: values.length,
  textHash: `h-${systemId}`,
  vector: Float32Array.from(values),
  embeddedAt: new Date().toISOString(),
});

const job = (id: string, environment: string, startedAt: string): EmbeddingJob => ({
  id,
  environment,
  model: 'm1',
  status: 'running',
  total: 10,
  done: 0,
  failed: 0,
  errors: [],
  startedAt,
  updatedAt: startedAt,
  finishedAt: null,
  resumed: 0,
});

/**
 * The behaviour every {@link EmbeddingStore} has. `open` opens the same, initially empty,
 * database each time it is called (the last test reopens it).
 *
 * @example
 * describeEmbeddingStoreConformance('sqlite', () => openSqliteEmbeddingStore({ file }));
 */
export function describeEmbeddingStoreConformance(
  name: string,
  open: () => Promise<EmbeddingStore>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip ?? false)(`EmbeddingStore conformance: ${name}`, () => {
    let store: EmbeddingStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });

    it('stores vectors exactly and lists them per model and environment', async () => {
      await store.putEmbeddings([
        row('a', 'm1', [0.1, -2.5, 3.25]),
        row('b', 'm1', [1, 0, 0]),
        row('a', 'm2', [0.5, 0.5]),
        row('a', 'm1', [9, 9, 9], 'staging'),
      ]);
      const m1 = (await store.listEmbeddings('m1', 'production')).sort((x, y) =>
        x.systemId.localeCompare(y.systemId),
      );
      expect(m1.map((r) => r.systemId)).toEqual(['a', 'b']);
      expect(Array.from(m1[0]?.vector ?? [])).toEqual([Math.fround(0.1), -2.5, 3.25]);
      expect(m1[0]).toMatchObject({
        model: 'm1',
        dimensions: 3,
        textHash: 'h-a',
        environment: 'production',
      });
      expect(await store.listEmbeddings('m1')).toHaveLength(3);
      expect(await store.listEmbeddings('m2')).toHaveLength(1);
      expect(await store.countByModel()).toEqual({ m1: 3, m2: 1 });
    });

    it('replaces an embedding of the same instance and model', async () => {
      await store.putEmbeddings([{ ...row('b', 'm1', [0, 1, 0]), textHash: 'new' }]);
      const b = (await store.listEmbeddings('m1', 'production')).find((r) => r.systemId === 'b');
      expect(b?.textHash).toBe('new');
      expect(Array.from(b?.vector ?? [])).toEqual([0, 1, 0]);
    });

    it('deletes every model of an instance in one environment only', async () => {
      await store.deleteEmbeddings('production', 'a');
      expect((await store.listEmbeddings('m1', 'production')).map((r) => r.systemId)).toEqual([
        'b',
      ]);
      expect(await store.listEmbeddings('m2')).toHaveLength(0);
      expect(await store.listEmbeddings('m1', 'staging')).toHaveLength(1);
    });

    it('stores a large batch atomically', async () => {
      const rows = Array.from({ length: 1200 }, (_, i) => row(`bulk-${i}`, 'm3', [i, i + 1]));
      await store.putEmbeddings(rows);
      expect(await store.listEmbeddings('m3')).toHaveLength(1200);
      await expect(
        store.putEmbeddings([
          row('ok', 'm4', [1]),
          { ...row('bad', 'm4', [1]), systemId: null as unknown as string },
        ]),
      ).rejects.toMatchObject({ code: 'store_failed' });
      expect(await store.listEmbeddings('m4')).toHaveLength(0);
    });

    it('keeps jobs with their progress, newest first, filtered', async () => {
      await store.createJob(job('j1', 'production', '2026-01-01T00:00:00.000Z'));
      await store.createJob(job('j2', 'staging', '2026-01-02T00:00:00.000Z'));
      await store.createJob(job('j3', 'production', '2026-01-03T00:00:00.000Z'));
      const j1 = (await store.getJob('j1')) as EmbeddingJob;
      await store.updateJob({
        ...j1,
        status: 'completed',
        done: 10,
        errors: [{ systemId: 'x', message: 'm' }],
        finishedAt: '2026-01-01T00:01:00.000Z',
      });
      expect(await store.getJob('j1')).toMatchObject({
        status: 'completed',
        done: 10,
        errors: [{ systemId: 'x', message: 'm' }],
      });
      expect(await store.getJob('nope')).toBeNull();
      expect((await store.listJobs({ environment: 'production' })).map((j) => j.id)).toEqual([
        'j3',
        'j1',
      ]);
      expect((await store.listJobs({ status: 'running' })).map((j) => j.id)).toEqual(['j3', 'j2']);
      expect((await store.listJobs({ limit: 1 })).map((j) => j.id)).toEqual(['j3']);
    });

    it('claims one job per environment across processes: the second claimer gets the running job', async () => {
      const other = await open(); // a second process on the same database
      try {
        const first = job('lease-1', 'lease-env', '2026-02-01T00:00:00.000Z');
        const second = job('lease-2', 'lease-env', '2026-02-01T00:00:01.000Z');
        const [a, b] = await Promise.all([
          store.claimJob(first, { owner: 'process-a', leaseMs: 60_000 }),
          other.claimJob(second, { owner: 'process-b', leaseMs: 60_000 }),
        ]);
        // Exactly one wins, and both answer the winner's job.
        expect([a.claimed, b.claimed].sort()).toEqual([false, true]);
        const winner = a.claimed ? a.job : b.job;
        expect(a.job.id).toBe(winner.id);
        expect(b.job.id).toBe(winner.id);
        const [loserStore, loserId] = a.claimed ? [other, 'lease-2'] : [store, 'lease-1'];
        expect(await loserStore.getJob(loserId)).toBeNull();
        expect(await loserStore.getJob(winner.id)).toMatchObject({ status: 'running' });

        // Only the owner renews or releases; another environment is free.
        const [owner, stranger] = a.claimed
          ? ['process-a', 'process-b']
          : ['process-b', 'process-a'];
        expect(await store.renewJobLease('lease-env', stranger, 60_000)).toBe(false);
        expect(await other.renewJobLease('lease-env', owner, 60_000)).toBe(true);
        await store.releaseJobLease('lease-env', stranger);
        expect(
          (
            await other.claimJob(job('lease-3', 'lease-env', '2026-02-01T00:00:02.000Z'), {
              owner: stranger,
              leaseMs: 60_000,
            })
          ).claimed,
        ).toBe(false);
        expect(
          (
            await other.claimJob(job('lease-4', 'other-env', '2026-02-01T00:00:02.000Z'), {
              owner: stranger,
              leaseMs: 60_000,
            })
          ).claimed,
        ).toBe(true);

        // A released lease is free again.
        await store.releaseJobLease('lease-env', owner);
        const after = job('lease-5', 'lease-env', '2026-02-01T00:00:03.000Z');
        expect(await other.claimJob(after, { owner: stranger, leaseMs: 60_000 })).toMatchObject({
          claimed: true,
          job: { id: 'lease-5' },
        });
        await other.releaseJobLease('lease-env', stranger);
      } finally {
        await other.close();
      }
    });

    it('of 24 concurrent claims of one environment on four processes, exactly one wins (5 trials)', async () => {
      const others = await Promise.all([open(), open(), open()]);
      const processes = [store, ...others];
      try {
        for (let trial = 0; trial < 5; trial++) {
          const environment = `race-env-${trial}`;
          const results = await Promise.all(
            Array.from({ length: 24 }, (_, i) =>
              processes[i % 4]!.claimJob(
                job(`race-${trial}-${i}`, environment, '2026-04-01T00:00:00.000Z'),
                {
                  owner: `owner-${i}`,
                  leaseMs: 60_000,
                },
              ),
            ),
          );
          const winners = results.filter((r) => r.claimed);
          expect(winners, `trial ${trial}`).toHaveLength(1);
          for (const r of results) expect(r.job.id).toBe(winners[0]!.job.id);
          const running = await store.listJobs({ environment, status: 'running' });
          expect(running.map((j) => j.id)).toEqual([winners[0]!.job.id]);
        }
      } finally {
        await Promise.all(others.map((other) => other.close()));
      }
    });

    it('takes over a job whose lease expired, storing the stale one as failed', async () => {
      const stale = job('expiring', 'expiry-env', '2026-03-01T00:00:00.000Z');
      expect((await store.claimJob(stale, { owner: 'dead', leaseMs: 1 })).claimed).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      expect(await store.renewJobLease('expiry-env', 'alive', 60_000)).toBe(false);
      const fresh = job('fresh', 'expiry-env', '2026-03-01T00:01:00.000Z');
      expect(await store.claimJob(fresh, { owner: 'alive', leaseMs: 60_000 })).toMatchObject({
        claimed: true,
        job: { id: 'fresh' },
      });
      const failed = await store.getJob('expiring');
      expect(failed).toMatchObject({ status: 'failed' });
      expect(failed?.errors.at(-1)?.message).toMatch(/job fresh replaced it/);
      // A resumed job (same id, same owner) is stored again with its progress.
      await store.claimJob({ ...fresh, done: 3, resumed: 1 }, { owner: 'alive', leaseMs: 60_000 });
      expect(await store.getJob('fresh')).toMatchObject({ done: 3, resumed: 1 });
      await store.releaseJobLease('expiry-env', 'alive');
    });

    it('keeps everything across a reopen', async () => {
      await store.close();
      store = await open();
      expect((await store.listEmbeddings('m1', 'production')).map((r) => r.systemId)).toEqual([
        'b',
      ]);
      expect(await store.getJob('j3')).toMatchObject({ status: 'running' });
    });
  });
}

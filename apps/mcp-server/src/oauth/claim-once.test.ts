import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, randomSchema, TEST_DATABASE_URL } from '@dcg/testing-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { epoch, type OAuthStore } from './oauth-store';
import { openPostgresOAuthStore } from './postgres-oauth-store';
import { openSqliteOAuthStore } from './sqlite-oauth-store';

const available = await postgresAvailable();
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Two handles on one store: two instances sharing PostgreSQL, or two connections to one SQLite file. */
async function openPair(kind: 'sqlite' | 'postgres'): Promise<[OAuthStore, OAuthStore]> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-claim-'));
    const a = await openSqliteOAuthStore(join(dir, 'oauth.db'), join(dir, 'keys.json'));
    const b = await openSqliteOAuthStore(join(dir, 'oauth.db'), join(dir, 'keys.json'));
    cleanups.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => a.close(),
      () => b.close(),
    );
    return [a, b];
  }
  const { schema, drop } = randomSchema('kysely_oauth');
  cleanups.push(drop);
  const a = await openPostgresOAuthStore({ connectionString: TEST_DATABASE_URL, schema });
  const b = await openPostgresOAuthStore({ connectionString: TEST_DATABASE_URL, schema });
  cleanups.push(
    () => a.close(),
    () => b.close(),
  );
  return [a, b];
}

describe.each(['sqlite', 'postgres'] as const)(
  'OAuthStore.claimOnce on %s (the DPoP jti cache)',
  (kind) => {
    it.skipIf(kind === 'postgres' && !available)(
      'one of 60 concurrent claims of one id wins, across two instances, in every one of 10 trials',
      async () => {
        const [a, b] = await openPair(kind);
        for (let trial = 0; trial < 10; trial++) {
          const id = `proof-${trial}`;
          const results = await Promise.all(
            Array.from({ length: 60 }, (_, i) =>
              (i % 2 ? a : b).claimOnce('DPoPProof', id, epoch() + 60),
            ),
          );
          expect(results.filter(Boolean), `trial ${trial}`).toHaveLength(1);
        }
      },
    );

    it.skipIf(kind === 'postgres' && !available)(
      'an expired claim may be made again; kinds do not collide',
      async () => {
        const [a] = await openPair(kind);
        expect(await a.claimOnce('DPoPProof', 'old', epoch() - 1)).toBe(true);
        expect(await a.claimOnce('DPoPProof', 'old', epoch() + 60)).toBe(true);
        expect(await a.claimOnce('DPoPProof', 'old', epoch() + 60)).toBe(false);
        expect(await a.claimOnce('Other', 'old', epoch() + 60)).toBe(true);
      },
    );
  },
);

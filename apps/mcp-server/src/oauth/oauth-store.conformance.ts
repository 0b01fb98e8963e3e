import { describe, expect, it } from 'vitest';
import type { OAuthStore } from './oauth-store';
import { loadSigningKeys } from './signing-keys';

/**
 * The behaviour every OAuth store must have (test code: run by the SQLite and PostgreSQL tests).
 *
 * @example
 * describeOAuthStoreConformance('sqlite', async () => openSqliteOAuthStore(file, keysFile));
 */
export function describeOAuthStoreConformance(name: string, open: () => Promise<OAuthStore>): void {
  describe(`OAuth store conformance: ${name}`, () => {
    const withStore = async (run: (store: OAuthStore) => Promise<void>) => {
      const store = await open();
      try {
        await run(store);
      } finally {
        await store.close();
      }
    };

    it('upserts, finds by id, uid and user code, and destroys', () =>
      withStore(async (store) => {
        const sessions = store.adapter('Session');
        await sessions.upsert('s1', { uid: 'u1', accountId: 'alice' }, 60);
        expect(await sessions.find('s1')).toMatchObject({ uid: 'u1', accountId: 'alice' });
        expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'alice' });
        await sessions.upsert('s1', { uid: 'u1', accountId: 'bob' }, 60);
        expect(await sessions.find('s1')).toMatchObject({ accountId: 'bob' });
        expect(await store.adapter('AccessToken').find('s1')).toBeUndefined(); // models are separate
        const devices = store.adapter('DeviceCode');
        await devices.upsert('d1', { userCode: 'ABCD-EFGH' }, 60);
        expect(await devices.findByUserCode('ABCD-EFGH')).toMatchObject({ userCode: 'ABCD-EFGH' });
        await sessions.destroy('s1');
        expect(await sessions.find('s1')).toBeUndefined();
      }));

    it('does not answer expired rows, and sweeps them', () =>
      withStore(async (store) => {
        const codes = store.adapter('AuthorizationCode');
        await codes.upsert('expired', { grantId: 'g0' }, -1);
        await codes.upsert('forever', { grantId: 'g0' });
        expect(await codes.find('expired')).toBeUndefined();
        expect(await codes.find('forever')).toBeDefined();
        expect(await store.sweep()).toBeGreaterThanOrEqual(1);
      }));

    it('consume marks a code as used once, with the time of first use', () =>
      withStore(async (store) => {
        const codes = store.adapter('AuthorizationCode');
        await codes.upsert('c1', { grantId: 'g1' }, 60);
        expect((await codes.find('c1'))?.consumed).toBeUndefined();
        await codes.consume('c1');
        const consumed = (await codes.find('c1'))?.consumed;
        expect(consumed).toEqual(expect.any(Number));
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        await codes.consume('c1');
        expect((await codes.find('c1'))?.consumed).toBe(consumed);
      }));

    it('revokes every token of a grant; a grant is live until destroyed or expired', () =>
      withStore(async (store) => {
        await store.adapter('Grant').upsert('g2', { clientId: 'c', accountId: 'a' }, 60);
        await store.adapter('RefreshToken').upsert('r1', { grantId: 'g2' }, 60);
        await store.adapter('AccessToken').upsert('a1', { grantId: 'g2' }, 60);
        await store.adapter('AccessToken').upsert('a2', { grantId: 'other' }, 60);
        expect(await store.grantAlive('g2')).toBe(true);
        await store.adapter('RefreshToken').revokeByGrantId('g2');
        expect(await store.adapter('RefreshToken').find('r1')).toBeUndefined();
        expect(await store.adapter('AccessToken').find('a1')).toBeUndefined();
        expect(await store.adapter('AccessToken').find('a2')).toBeDefined();
        await store.adapter('Grant').destroy('g2');
        expect(await store.grantAlive('g2')).toBe(false);
        await store.adapter('Grant').upsert('g3', { clientId: 'c' }, -1);
        expect(await store.grantAlive('g3')).toBe(false);
        expect(await store.grantAlive('never')).toBe(false);
      }));

    it('removes registered clients that never got a grant', () =>
      withStore(async (store) => {
        await store.adapter('Client').upsert('unused', { client_id: 'unused' });
        await store.adapter('Client').upsert('used', { client_id: 'used' });
        await store.adapter('Grant').upsert('g4', { clientId: 'used', accountId: 'a' }, 60);
        const later = Math.floor(Date.now() / 1000) + 10;
        expect(await store.removeUnusedClients(later)).toBeGreaterThanOrEqual(1);
        expect(await store.adapter('Client').find('unused')).toBeUndefined();
        expect(await store.adapter('Client').find('used')).toBeDefined();
        expect(await store.removeUnusedClients(0)).toBe(0);
      }));

    it('keeps one set of signing keys; rotation puts a new key first and keeps the old one', () =>
      withStore(async (store) => {
        const [a, b] = await Promise.all([
          loadSigningKeys(store.keys, { rotationDays: 30, retainSeconds: 600 }),
          loadSigningKeys(store.keys, { rotationDays: 30, retainSeconds: 600 }),
        ]);
        expect(a.jwks.keys[0]?.kid).toBe(b.jwks.keys[0]?.kid);
        const later = Math.floor(Date.now() / 1000) + 31 * 86_400;
        const rotated = await loadSigningKeys(store.keys, {
          rotationDays: 30,
          retainSeconds: 600,
          now: later,
        });
        expect(rotated.jwks.keys).toHaveLength(2);
        expect(rotated.jwks.keys[1]?.kid).toBe(a.jwks.keys[0]?.kid);
        expect(rotated.cookieKeys).toEqual(a.cookieKeys);
        expect((await store.keys.read())?.jwks.keys[0]?.kid).toBe(rotated.jwks.keys[0]?.kid);
        // At the next rotation the first key has outlived every token it signed and is dropped;
        // the one it replaced with is kept, as it signed until now.
        const muchLater = later + 31 * 86_400;
        const again = await loadSigningKeys(store.keys, {
          rotationDays: 30,
          retainSeconds: 600,
          now: muchLater,
        });
        expect(again.jwks.keys.map((k) => k.kid)).toEqual([
          again.jwks.keys[0]?.kid,
          rotated.jwks.keys[0]?.kid,
        ]);
      }));
  });
}

import { describe, expect, it } from 'vitest';
import { storedId, toStoredPayload } from './credential-hashing';
import type { OAuthStore } from './oauth-store';
import { loadSigningKeys } from './signing-keys';

/** A row as the store before version 1 wrote it: the code or token value as its id and `jti`. */
export interface LegacyRow {
  model: string;
  id: string;
  payload: Record<string, unknown>;
  grantId?: string;
}

/** One place to keep an OAuth store (a file, a schema), opened by one or more instances. */
export interface OAuthStorage {
  /** Opens an instance of the store on this storage (each call a new connection). */
  open(): Promise<OAuthStore>;
  /** Everything stored, as text, to check what is at rest (for SQLite: the files themselves). */
  dump(): Promise<string>;
  /**
   * Writes rows, before any instance opens it, the way the store did before the migration runner:
   * version 0 (values as ids) or 1 (hashed ids, marked by the store's own version marker).
   */
  writeLegacy(rows: LegacyRow[], version?: 0 | 1): Promise<void>;
}

/**
 * The behaviour every OAuth store must have (test code: run by the SQLite and PostgreSQL tests).
 *
 * @example
 * describeOAuthStoreConformance('sqlite', () => sqliteStorage(dir));
 */
export function describeOAuthStoreConformance(name: string, storage: () => OAuthStorage): void {
  describe(`OAuth store conformance: ${name}`, () => {
    const withStore = async (run: (store: OAuthStore, place: OAuthStorage) => Promise<void>) => {
      const place = storage();
      const store = await place.open();
      try {
        await run(store, place);
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

    it('consume marks a code as used once; a second consume fails and revokes the grant', () =>
      withStore(async (store) => {
        const codes = store.adapter('AuthorizationCode');
        await store.adapter('Grant').upsert('g1', { clientId: 'c', accountId: 'a' }, 60);
        await codes.upsert('c1', { grantId: 'g1' }, 60);
        await store.adapter('RefreshToken').upsert('r0', { grantId: 'g1' }, 60);
        expect((await codes.find('c1'))?.consumed).toBeUndefined();
        await codes.consume('c1');
        expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
        await expect(codes.consume('c1')).rejects.toMatchObject({ error: 'invalid_grant' });
        expect(await store.grantAlive('g1')).toBe(false);
        expect(await codes.find('c1')).toBeUndefined();
        expect(await store.adapter('RefreshToken').find('r0')).toBeUndefined();
      }));

    it.each(['AuthorizationCode', 'RefreshToken'])(
      '%s: of 8 concurrent consumes on two instances, exactly one wins (20 trials)',
      (model) =>
        withStore(async (first, place) => {
          const second = await place.open();
          try {
            for (let trial = 0; trial < 20; trial++) {
              const [grant, id] = [`g-${model}-${trial}`, `${model}-${trial}`];
              await first.adapter('Grant').upsert(grant, { clientId: 'c', accountId: 'a' }, 60);
              await first.adapter(model).upsert(id, { grantId: grant }, 60);
              const outcomes = await Promise.allSettled(
                Array.from({ length: 8 }, (_, i) =>
                  (i % 2 ? second : first).adapter(model).consume(id),
                ),
              );
              expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
              for (const lost of outcomes.filter((o) => o.status === 'rejected'))
                expect(lost.reason).toMatchObject({ error: 'invalid_grant' });
              expect(await second.grantAlive(grant)).toBe(false);
            }
          } finally {
            await second.close();
          }
        }),
    );

    it.each(['AuthorizationCode', 'RefreshToken'])(
      '%s: of 64 concurrent consumes on four instances, exactly one wins, the rest revoke the grant',
      (model) =>
        withStore(async (first, place) => {
          const others = await Promise.all([place.open(), place.open(), place.open()]);
          const instances = [first, ...others];
          try {
            for (let trial = 0; trial < 5; trial++) {
              const [grant, id] = [`many-${model}-${trial}`, `many-${model}-${trial}-id`];
              await first.adapter('Grant').upsert(grant, { clientId: 'c', accountId: 'a' }, 60);
              await first.adapter(model).upsert(id, { grantId: grant }, 60);
              const outcomes = await Promise.allSettled(
                Array.from({ length: 64 }, (_, i) => instances[i % 4]!.adapter(model).consume(id)),
              );
              expect(
                outcomes.filter((o) => o.status === 'fulfilled'),
                `trial ${trial}`,
              ).toHaveLength(1);
              for (const lost of outcomes.filter((o) => o.status === 'rejected'))
                expect(lost.reason).toMatchObject({ error: 'invalid_grant' });
              for (const instance of instances)
                expect(await instance.grantAlive(grant)).toBe(false);
              expect(await others[2]!.adapter(model).find(id)).toBeUndefined();
            }
          } finally {
            await Promise.all(others.map((store) => store.close()));
          }
        }),
    );

    it('keeps codes, tokens and client secrets only as hashes, found by their value', () =>
      withStore(async (store, place) => {
        const [code, refresh, secret] = ['code-XyZ123', 'refresh-AbC456', 'secret-DeF789'];
        await store.adapter('AuthorizationCode').upsert(code, { jti: code, grantId: 'g5' }, 60);
        await store.adapter('RefreshToken').upsert(refresh, { jti: refresh, grantId: 'g5' }, 60);
        await store
          .adapter('Client')
          .upsert('client-5', { client_id: 'client-5', client_secret: secret });
        expect(await store.adapter('AuthorizationCode').find(code)).toMatchObject({
          jti: code,
          grantId: 'g5',
        });
        expect(await store.adapter('RefreshToken').find(refresh)).toMatchObject({ jti: refresh });
        const client = await store.adapter('Client').find('client-5');
        expect(client?.client_secret).toMatch(/^sha256\$/);
        const dumped = await place.dump();
        expect(dumped).toContain('client-5');
        for (const value of [code, refresh, secret]) expect(dumped).not.toContain(value);
        await store.adapter('RefreshToken').consume(refresh);
        await store.adapter('RefreshToken').revokeByGrantId('g5');
        expect(await store.adapter('AuthorizationCode').find(code)).toBeUndefined();
      }));

    it('migrates a store written the old way: values become hashes, found as before', async () => {
      const place = storage();
      await place.writeLegacy([
        { model: 'Grant', id: 'g6', payload: { jti: 'g6', clientId: 'c6', accountId: 'a' } },
        {
          model: 'RefreshToken',
          id: 'legacy-refresh-QwE',
          payload: { jti: 'legacy-refresh-QwE', grantId: 'g6', kind: 'RefreshToken' },
          grantId: 'g6',
        },
        {
          model: 'Client',
          id: 'c6',
          payload: { client_id: 'c6', client_secret: 'legacy-secret-RtY' },
        },
        { model: 'Session', id: 'session-1', payload: { jti: 'session-1', uid: 'u6' } },
      ]);
      const [first, second] = await Promise.all([place.open(), place.open()]);
      try {
        expect(await first.adapter('RefreshToken').find('legacy-refresh-QwE')).toMatchObject({
          jti: 'legacy-refresh-QwE',
          grantId: 'g6',
        });
        expect(await second.adapter('Session').find('session-1')).toMatchObject({ uid: 'u6' });
        expect((await first.adapter('Client').find('c6'))?.client_secret).toMatch(/^sha256\$/);
        const dumped = await place.dump();
        expect(dumped).not.toContain('legacy-refresh-QwE');
        expect(dumped).not.toContain('legacy-secret-RtY');
        await first.adapter('RefreshToken').consume('legacy-refresh-QwE');
        await expect(
          second.adapter('RefreshToken').consume('legacy-refresh-QwE'),
        ).rejects.toMatchObject({ error: 'invalid_grant' });
        expect(await first.grantAlive('g6')).toBe(false);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
      // Opening again does not hash the hashes.
      const again = await place.open();
      try {
        expect(await again.adapter('Session').find('session-1')).toMatchObject({ uid: 'u6' });
        expect((await again.adapter('Client').find('c6'))?.client_secret).toMatch(/^sha256\$/);
      } finally {
        await again.close();
      }
    });

    it('opens a store written by the code before the migration runner (hashed) in place, hashing nothing twice', async () => {
      const place = storage();
      const hashed = (model: string, id: string, payload: Record<string, unknown>) => ({
        model,
        id: storedId(model, id),
        payload: toStoredPayload(model, payload),
        ...(typeof payload.grantId === 'string' ? { grantId: payload.grantId } : {}),
      });
      await place.writeLegacy(
        [
          { model: 'Grant', id: 'g7', payload: { jti: 'g7', clientId: 'c7', accountId: 'a' } },
          hashed('RefreshToken', 'current-refresh-ZxC', {
            jti: 'current-refresh-ZxC',
            grantId: 'g7',
          }),
          hashed('Client', 'c7', { client_id: 'c7', client_secret: 'current-secret-VbN' }),
        ],
        1,
      );
      const store = await place.open();
      try {
        expect(await store.adapter('RefreshToken').find('current-refresh-ZxC')).toMatchObject({
          jti: 'current-refresh-ZxC',
          grantId: 'g7',
        });
        const secret = (await store.adapter('Client').find('c7'))?.client_secret;
        expect(secret).toBe(
          toStoredPayload('Client', { client_secret: 'current-secret-VbN' }).client_secret,
        );
        for (const value of ['current-refresh-ZxC', 'current-secret-VbN'])
          expect(await place.dump()).not.toContain(value);
        expect(await store.grantAlive('g7')).toBe(true);
      } finally {
        await store.close();
      }
    });

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

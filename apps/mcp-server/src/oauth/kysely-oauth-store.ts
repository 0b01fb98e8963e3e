import { readJson } from '@dcg/storage';
import { type ColumnType, type Kysely, sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { fromStoredPayload, storedId, toStoredPayload } from './credential-hashing';
import { epoch, type OAuthStore, type StoredPayload } from './oauth-store';
import { reuseDetected } from './reuse-detection';
import type { KeyStorage, SigningKeys } from './signing-keys';

/** Epoch seconds: INTEGER in SQLite, BIGINT in PostgreSQL (which pg answers as text). */
type EpochColumn = ColumnType<number | string, number, number>;
/** JSON: TEXT in SQLite (answered as text), JSONB in PostgreSQL (answered parsed). */
type JsonColumn<T> = ColumnType<string | T, string, string>;

/** The tables of the OAuth store, as both dialects hold them. */
export interface OAuthTables {
  oauth_models: {
    model: string;
    id: string;
    payload: JsonColumn<StoredPayload>;
    grant_id: string | null;
    uid: string | null;
    user_code: string | null;
    created_at: EpochColumn;
    expires_at: EpochColumn | null;
    consumed_at: EpochColumn | null;
  };
  /** The signing keys, where they live in the database (PostgreSQL; SQLite keeps a file). */
  oauth_keys: { id: number; body: JsonColumn<SigningKeys>; newest_kid: string };
}

/**
 * The OAuth store over either database, written once: every statement here runs unchanged on
 * SQLite and on PostgreSQL. Single use holds because each use is one conditional statement whose
 * affected-row count tells the loser it lost (`UPDATE … WHERE consumed_at IS NULL`, `INSERT … ON
 * CONFLICT DO UPDATE … WHERE expired`), which both databases serialise on the row.
 *
 * @example
 * const store = kyselyOAuthStore(db, { kind: 'sqlite', keys: fileKeyStorage(keysFile), close: () => db.destroy() });
 */
export function kyselyOAuthStore(
  db: Kysely<OAuthTables>,
  options: { kind: OAuthStore['kind']; keys: KeyStorage; close(): Promise<void> },
): OAuthStore {
  const models = () => db.selectFrom('oauth_models').select(['payload', 'consumed_at']);
  const live = (now: number) => sql<boolean>`(expires_at IS NULL OR expires_at > ${now})`;
  const read = (
    model: string,
    id: string | undefined,
    row: { payload: string | StoredPayload; consumed_at: number | string | null } | undefined,
  ): StoredPayload | undefined => {
    if (!row) return undefined;
    const parsed = readJson<StoredPayload>(row.payload);
    const value = id === undefined ? parsed : fromStoredPayload(model, id, parsed);
    return row.consumed_at === null ? value : { ...value, consumed: Number(row.consumed_at) };
  };
  // A live row of `model` whose `column` holds `value`; `id` (the caller's, before hashing) when
  // looked up by id.
  const findLive = async (
    model: string,
    column: 'id' | 'uid' | 'user_code',
    value: string,
    id?: string,
  ) => {
    const row = await models()
      .where('model', '=', model)
      .where(column, '=', value)
      .where(live(epoch()))
      .executeTakeFirst();
    return read(model, id, row);
  };
  // The tokens of a grant (and, on a reuse, the grant itself, first), one row per statement.
  // Concurrent revocations of one grant (every loser of a reuse race revokes it) would deadlock on
  // PostgreSQL if each deleted the rows in one statement, taking their locks in its own order; a
  // statement that locks one row and commits cannot be part of a lock cycle. With the grant gone,
  // a token created after the rows were read is refused anyway.
  const revokeGrant = async (grantId: string, withGrant: boolean) => {
    const rows = await db
      .selectFrom('oauth_models')
      .select(['model', 'id'])
      .where('grant_id', '=', grantId)
      .execute();
    for (const row of withGrant ? [{ model: 'Grant', id: grantId }, ...rows] : rows) {
      await db
        .deleteFrom('oauth_models')
        .where('model', '=', row.model)
        .where('id', '=', row.id)
        .execute();
    }
  };

  return {
    kind: options.kind,
    keys: options.keys,
    adapter(model: string): Adapter {
      return {
        async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
          const now = epoch();
          const row = {
            payload: JSON.stringify(toStoredPayload(model, payload)),
            grant_id: payload.grantId ?? null,
            uid: payload.uid ?? null,
            user_code: payload.userCode ?? null,
            expires_at: typeof expiresIn === 'number' ? now + expiresIn : null,
          };
          await db
            .insertInto('oauth_models')
            .values({ model, id: storedId(model, id), created_at: now, ...row })
            .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
            .execute();
        },
        find: (id: string) => findLive(model, 'id', storedId(model, id), id),
        findByUid: (uid: string) => findLive(model, 'uid', uid),
        findByUserCode: (userCode: string) => findLive(model, 'user_code', userCode),
        async consume(id: string) {
          const key = storedId(model, id);
          // Concurrent updates of one row queue on it; the later ones then see it consumed.
          const { numUpdatedRows } = await db
            .updateTable('oauth_models')
            .set({ consumed_at: epoch() })
            .where('model', '=', model)
            .where('id', '=', key)
            .where('consumed_at', 'is', null)
            .executeTakeFirstOrThrow();
          if (numUpdatedRows === 1n) return;
          const consumed = await db
            .selectFrom('oauth_models')
            .select('grant_id')
            .where('model', '=', model)
            .where('id', '=', key)
            .executeTakeFirst();
          if (consumed?.grant_id) await revokeGrant(consumed.grant_id, true);
          throw reuseDetected(model);
        },
        async destroy(id: string) {
          await db
            .deleteFrom('oauth_models')
            .where('model', '=', model)
            .where('id', '=', storedId(model, id))
            .execute();
        },
        revokeByGrantId: (grantId: string) => revokeGrant(grantId, false),
      };
    },
    async grantAlive(grantId) {
      const row = await db
        .selectFrom('oauth_models')
        .select('id')
        .where('model', '=', 'Grant')
        .where('id', '=', grantId)
        .where(live(epoch()))
        .executeTakeFirst();
      return row !== undefined;
    },
    async removeUnusedClients(createdBefore) {
      // `->>` reads a JSON member as text on both (SQLite ≥ 3.38, PostgreSQL's jsonb).
      const { numDeletedRows } = await db
        .deleteFrom('oauth_models')
        .where('model', '=', 'Client')
        .where('created_at', '<', createdBefore)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('oauth_models as g')
                .select(sql.lit(1).as('one'))
                .where('g.model', '=', 'Grant')
                .where(sql`g.payload ->> 'clientId'`, '=', sql.ref('oauth_models.id')),
            ),
          ),
        )
        .executeTakeFirstOrThrow();
      return Number(numDeletedRows);
    },
    async sweep() {
      const { numDeletedRows } = await db
        .deleteFrom('oauth_models')
        .where('expires_at', 'is not', null)
        .where('expires_at', '<=', epoch())
        .executeTakeFirstOrThrow();
      return Number(numDeletedRows);
    },
    async claimOnce(kind, id, expiresAt) {
      const now = epoch();
      // An expired record left by the sweep counts as absent: it is taken over in the same statement.
      const { numInsertedOrUpdatedRows } = await db
        .insertInto('oauth_models')
        .values({ model: kind, id, payload: '{}', created_at: now, expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .columns(['model', 'id'])
            .doUpdateSet({ created_at: now, expires_at: expiresAt })
            .where('oauth_models.expires_at', 'is not', null)
            .where('oauth_models.expires_at', '<=', now),
        )
        .executeTakeFirstOrThrow();
      return numInsertedOrUpdatedRows === 1n;
    },
    close: options.close,
  };
}

/**
 * Signing keys in the `oauth_keys` table (one row), replaced by compare-and-set on the newest key
 * id so that instances sharing the database agree on one set.
 *
 * @example
 * const keys = tableKeyStorage(db);
 */
export function tableKeyStorage(db: Kysely<OAuthTables>): KeyStorage {
  return {
    async read() {
      const row = await db
        .selectFrom('oauth_keys')
        .select('body')
        .where('id', '=', 1)
        .executeTakeFirst();
      return row ? readJson<SigningKeys>(row.body) : undefined;
    },
    async replace(previous, next) {
      const newest = next.jwks.keys[0]!.kid;
      const body = JSON.stringify(next);
      if (previous === undefined) {
        const { numInsertedOrUpdatedRows } = await db
          .insertInto('oauth_keys')
          .values({ id: 1, body, newest_kid: newest })
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirstOrThrow();
        return numInsertedOrUpdatedRows === 1n;
      }
      const { numUpdatedRows } = await db
        .updateTable('oauth_keys')
        .set({ body, newest_kid: newest })
        .where('id', '=', 1)
        .where('newest_kid', '=', previous.jwks.keys[0]?.kid ?? '')
        .executeTakeFirstOrThrow();
      return numUpdatedRows === 1n;
    },
  };
}

export { databaseNow, readJson } from './dialect-sql';
export {
  type MigrationReport,
  type MigrationStep,
  type Migrations,
  migrate,
} from './migrate';
export { openPostgres, type PostgresTarget } from './open-postgres';
export { openSqlite, type SqliteOptions } from './open-sqlite';
export { withPgTransaction } from './pg-transaction';
export { StorageError, type StorageErrorCode } from './storage-error';
export type { PostgresHandle, SqliteHandle, StorageHandle } from './storage-handle';
export { oneAtATime, transaction, writeOnSqlite } from './transaction';

export {
  type MigrationReport,
  type MigrationStep,
  type Migrations,
  migrate,
} from './migrate';
export { openPostgres, type PostgresTarget } from './open-postgres';
export { openSqlite, type SqliteOptions } from './open-sqlite';
export { StorageError, type StorageErrorCode } from './storage-error';
export type { PostgresHandle, SqliteHandle, StorageHandle } from './storage-handle';

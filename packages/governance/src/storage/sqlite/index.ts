export { openSqliteStore, type SqliteStoreOptions } from './sqlite-store';

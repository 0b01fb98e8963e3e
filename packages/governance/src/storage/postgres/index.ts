export { openPostgresStore, type PostgresStoreOptions } from './postgres-store';

export { postgresAvailable } from './postgres-available';
export { type PostgresOutage, postgresOutage } from './postgres-outage';
export { type RandomSchema, randomSchema } from './random-schema';
export { TEST_DATABASE_URL } from './test-database-url';

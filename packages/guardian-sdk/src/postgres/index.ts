// Kept here for callers of the SDK; the one definition is in @dcg/contract-schema.
export { meetsThreshold } from '@dcg/contract-schema';
export {
  type PostgresCheckOptions,
  type PostgresPool,
  type PostgresQueryable,
  postgresContractCheck,
  sqlWithPlaceholders,
} from './contract-checks';
export { isCompatibleType } from './type-compatibility';

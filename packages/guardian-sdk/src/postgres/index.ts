export {
  meetsThreshold,
  type PostgresCheckOptions,
  type PostgresPool,
  type PostgresQueryable,
  postgresContractCheck,
  sqlWithPlaceholders,
} from './contract-checks';
export { isCompatibleType } from './type-compatibility';

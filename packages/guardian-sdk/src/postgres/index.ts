export {
  meetsThreshold,
  type PostgresCheckOptions,
  type PostgresPool,
  type PostgresQueryable,
  postgresContractCheck,
} from './contract-checks';
export { isCompatibleType } from './type-compatibility';

export { isBlockingSeverity } from '@dcg/contract-schema';
export { ContractRegistry, type ContractRegistrySnapshot } from './contract-registry';
export { type CreateGuardianOptions, createGuardian, type Guardian } from './create-guardian';
export {
  CHECKED_FORMATS,
  type ColumnOptions,
  type ContractColumn,
  type ContractIssue,
  type ContractModel,
  type ContractParse,
  type DataContract,
  parseDataContract,
  type QualityRule,
  type Threshold,
  type UncheckedRule,
} from './data-contract';
export {
  convertDatacontractCliRun,
  type DatacontractCliConversion,
  type DatacontractCliRun,
  DatacontractCliRunSchema,
} from './datacontract-cli';
export { formatDuration, parseDuration } from './duration';
export {
  GovernanceClient,
  type GovernanceClientOptions,
  type SubmissionReceipt,
  type SubmitInput,
} from './governance-client';
export {
  type GuardedContract,
  type GuardedContracts,
  type GuardedPart,
  type GuardIssue,
  guardedContracts,
} from './guarded-contracts';
export { GuardianSdkError, type GuardianSdkErrorCode } from './guardian-sdk-error';
export {
  blocks,
  buildSubmission,
  notCheckedSection,
  type RequirementBuilder,
  type RequirementOptions,
  requirement,
  requirementsOf,
  type SubmissionInput,
  section,
} from './result-builder';
export {
  type Check,
  type CheckContext,
  defineCheck,
  type GuardianHooks,
  type MonitoredContract,
  type ResultSink,
  RUN_OUTCOMES,
  type RunGuardianOptions,
  type RunningGuardian,
  type RunOutcome,
  type RunReport,
  type RunSummary,
  runGuardian,
} from './run-guardian';
export {
  type CronExpression,
  delayUntilNext,
  parseCron,
  type Schedule,
  scheduleFromGuard,
} from './schedule';
export {
  createGuardianAdapter,
  type GuardianAdapter,
  type GuardianAdapterOptions,
  type GuardianProvisioning,
  type GuardianProvisioningAnswer,
  type GuardianProvisioningHandler,
} from './tech-adapter';

export {
  COMPLIANCE_SEVERITY_ORDER,
  type ComplianceCounts,
  type ContractComponentLike,
  contractStateOf,
  contractStatesOf,
  countVerdict,
  type FailingRequirement,
  failingRequirements,
  instanceCompliance,
  type RequirementNodeLike,
  type RequirementVerdict,
  requirementsOf,
  requirementTally,
  requirementVerdict,
  sumCounts,
} from './compliance-rollup';
export {
  type CheckedSubmission,
  type ComplianceStatus,
  type ComplianceTreeTarget,
  checkSubmission,
  complianceStateOf,
  complianceStatus,
  UNPROCESSABLE_MESSAGE,
} from './compliance-status';
// All of compliance-wire is public: the states, the tree and overrides on the wire.
export * from './compliance-wire';
export { ContractSchemaError, type ContractSchemaErrorCode } from './contract-schema-error';
export {
  type DeclaredColumnFlags,
  odcsColumnFlags,
  witboostColumnFlags,
  witboostConstraints,
} from './data-contract-columns';
export {
  type ComponentDescriptor,
  ComponentDescriptorSchema,
  type ComponentProvisioningDescriptor,
  ComponentProvisioningDescriptorSchema,
  type DataContractGuardianSpec,
  DataContractGuardianSpecSchema,
  type DescriptorInfo,
  DescriptorInfoSchema,
  type GuardEntry,
  GuardEntrySchema,
  type GuardianPrivateInfo,
  GuardianPrivateInfoSchema,
  type SystemDescriptor,
  SystemDescriptorSchema,
} from './descriptor';
export {
  type DescriptorFinding,
  type DescriptorFindingCode,
  lintDescriptor,
} from './descriptor-lint';
export {
  parseDescriptorYaml,
  safeParseDescriptorYaml,
  stringifyDescriptorYaml,
} from './descriptor-yaml';
export {
  type DetailsIssueLike,
  type DetailsIssueSentence,
  describeDetailsIssue,
} from './details-issue-sentence';
export { didYouMean } from './did-you-mean';
export {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_EXPANDED_BYTES,
  type DocumentLimits,
  findTooDeep,
  flowNestingDepth,
  type PathSegment,
} from './document-limits';
export type { DocumentIssue, DocumentIssueCode, DocumentParse } from './document-parse';
export { MAX_ENVIRONMENT_LENGTH } from './environment-name';
export {
  type EvaluationOutcome,
  EvaluationOutcomeSchema,
  type EvaluationResource,
  EvaluationResourceSchema,
  type EvaluationResult,
  EvaluationResultSchema,
  type EvaluationResultSubmission,
  EvaluationResultSubmissionSchema,
  SUBMISSION_LENGTH_MESSAGE,
} from './evaluation-result';
export { findComponent } from './find-component';
export {
  type DataContractGuardian,
  DataContractGuardianSchema,
  type GuardianPolicyCreateSpec,
  GuardianPolicyCreateSpecSchema,
  type GuardianPolicyEntry,
  GuardianPolicyEntrySchema,
  type GuardianPolicyReferenceSpec,
  GuardianPolicyReferenceSpecSchema,
  type GuardianPolicySpec,
  GuardianPolicySpecSchema,
} from './guardian-policy';
export {
  type InfrastructureTemplate,
  InfrastructureTemplateSchema,
  type TemplateProperties,
  TemplatePropertiesSchema,
} from './infrastructure-template';
export { toJsonPath } from './json-path';
export {
  isJsonSchemaName,
  JSON_SCHEMA_NAMES,
  type JsonSchemaName,
  toDraft07JsonSchema,
  zodSchemaFor,
} from './json-schemas';
export {
  type ProvisioningDescriptor,
  parseProvisioningDescriptor,
} from './provisioning-descriptor';
export {
  explainProvisioningInfoViolation,
  GUARDIAN_POLICY_ID_PATH,
  getGuardianPolicyId,
  isValidProvisioningInfo,
  mergeProvisioningInfo,
  withCompleteInfo,
  withGuardianPolicyId,
} from './provisioning-info';
export {
  type DescriptorKind,
  DescriptorKindSchema,
  type ProvisionInfo,
  ProvisionInfoSchema,
  type ProvisioningRequest,
  ProvisioningRequestSchema,
  type UpdateAclRequest,
  UpdateAclRequestSchema,
} from './provisioning-request';
export {
  type ProvisioningInfo,
  ProvisioningInfoSchema,
  type ProvisioningLog,
  ProvisioningLogSchema,
  type ProvisioningStatus,
  ProvisioningStatusSchema,
} from './provisioning-status';
export {
  describeThreshold,
  isRangeOperator,
  meetsThreshold,
  type RangeOperator,
  THRESHOLD_OPERATORS,
  type Threshold,
  type ThresholdFields,
  type ThresholdOperator,
  thresholdFields,
} from './quality-thresholds';
export {
  type ErrorSummary,
  ErrorSummarySchema,
  EXACTLY_ONE_MESSAGE_BOTH,
  EXACTLY_ONE_MESSAGE_NEITHER,
  ISSUES_WITHOUT_COMPLIANT_MESSAGE,
  type ResultDetails,
  ResultDetailsSchema,
  type ValidationRecord,
  ValidationRecordSchema,
} from './result-details';
export { isBlockingSeverity } from './severity';
export {
  type ContractTarget,
  type SelectContractTargetsOptions,
  selectContractTargets,
} from './target-selection';
export {
  type ErrorMoreInfo,
  ErrorMoreInfoSchema,
  type TechAdapterError,
  TechAdapterErrorSchema,
  type TechAdapterSystemError,
  TechAdapterSystemErrorSchema,
} from './tech-adapter-error';
// All of validation is public: the validators, their issues and the helpers that build them.
export * from './validation';
export {
  type ValidationResult,
  ValidationResultSchema,
  type ValidationStatus,
  ValidationStatusSchema,
} from './validation-result';
export { verdictOverride } from './verdict-override';

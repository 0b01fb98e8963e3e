// The stored and accepted result shapes are wire schemas of `@dcg/governance-schema`; the domain
// keeps these names for its readers.
export {
  type AcceptedEvaluationResult,
  AcceptedEvaluationResultSchema,
  type StoredEvaluationResult,
  StoredEvaluationResultSchema,
} from '@dcg/governance-schema';

/**
 * The codes every dcg HTTP client's error carries, one per failure, so that a caller of
 * `@dcg/kg-client` and `@dcg/marketplace-client` switches on the same names.
 */
export type ClientErrorCode =
  | 'invalid_argument'
  | 'problem'
  | 'timeout'
  | 'aborted'
  | 'network'
  | 'invalid_response';

export type { ClientErrorCode } from './client-error-code';
export {
  createHttpTransport,
  type HttpCall,
  type HttpTransport,
  type RetryKind,
  type TransportSettings,
} from './create-http-transport';
export {
  type ExchangeAnswer,
  ExchangeError,
  type ExchangeFailureCode,
  type ExchangeOptions,
  exchange,
} from './exchange';
export type { CallOptions, HttpClientOptions } from './http-client-options';
export { httpClientOptionsShape } from './http-client-options-schema';
export { readText } from './read-body';
export { retryAfterMs } from './retry-after';
export {
  describeCause,
  type FallbackProblem,
  problemMessage,
  type TransportErrors,
  type TransportIssue,
} from './transport-errors';

export type { AdmissionConfig, AdmissionRefusal } from './admission';
export {
  ADMISSION_EXEMPT_PATHS,
  Admission,
  AdmissionConfigSchema,
  admissionControl,
} from './admission';
export { serveApiDocs } from './api-docs';
export type { ApiKeyEntry, ResolvedApiKey } from './api-keys';
export { MIN_API_KEY_LENGTH, resolveApiKeys } from './api-keys';
export { apiReference } from './api-reference';
export type { ApiKey, AuthVariables, Principal } from './bearer-auth';
export { bearerAuth, constantTimeEqual, requireRole } from './bearer-auth';
export { CleanupStack } from './cleanup-stack';
export { clientOfAddress } from './client-address';
export { ConfigError, loadConfig, parseConfig } from './config';
export { integerSetting } from './config-settings';
export { installErrorHandling } from './error-handling';
export type { ReadinessReport } from './health';
export { healthRoutes } from './health';
export { ServiceLifecycle } from './lifecycle';
export type { Logger, LogLevel } from './logger';
export { createLogger, LOG_LEVELS, logLevelFromEnv } from './logger';
export type { MetricsConfig } from './metrics';
export {
  LATENCY_BUCKETS,
  MetricsConfigSchema,
  packageVersion,
  ServiceMetrics,
  UNMATCHED_ROUTE,
} from './metrics';
export type { OpenApiDocumentOptions, SecurityRequirement } from './openapi-document';
export { serveOpenApiDocument } from './openapi-document';
export type { OpenApiProblem } from './openapi-route-parts';
export {
  bearerGuarded,
  openApiJson,
  openApiProblem,
  openApiProblems,
} from './openapi-route-parts';
export type { PageShellBreadcrumb, PageShellOptions } from './page-shell';
export { PAGE_SHELL_STYLES, pageShell, pageShellStyleSource } from './page-shell';
export type { Problem, ProblemFieldError } from './problem';
export {
  fieldErrorsFromZod,
  ProblemError,
  ProblemFieldErrorSchema,
  ProblemSchema,
  problemResponse,
} from './problem';
export type { RateLimitConfig } from './rate-limit';
export { END_USER_HEADER, RateLimitConfigSchema, rateLimit } from './rate-limit';
export { REDACTED, redactSecrets } from './redact';
export type { RequestContextVariables } from './request-context';
export { requestContext } from './request-context';
export type { StartedService } from './run-service';
export { portFromEnv, runService } from './run-service';
export { isProduction } from './runtime-mode';
export {
  API_CONTENT_SECURITY_POLICY,
  API_SECURITY_HEADERS,
  securityHeaders,
} from './security-headers';
export type { HttpServerConfig, RunningServer } from './server';
export { HttpServerConfigSchema, startHttpServer } from './server';
export { installServiceFront } from './service-front';
export type {
  SharedCount,
  SharedCounter,
  SharedLimitRule,
  SharedLimits,
  SharedLimitsOptions,
} from './shared-limits';
export { openSharedLimits, SHARED_LIMITS_TABLE } from './shared-limits';
export { strictUtf8, strictUtf8InSteps } from './strict-utf8';
export { KeyedTokenBuckets, TokenBucket, type TokenRate } from './token-bucket';
export type { DecodeUtf8Result } from './utf8';
export { decodeUtf8, decodeUtf8InSteps } from './utf8';
export { zodValidationHook } from './zod-validation-hook';

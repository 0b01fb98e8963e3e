export {
  ADMISSION_EXEMPT_PATHS,
  Admission,
  type AdmissionConfig,
  AdmissionConfigSchema,
  type AdmissionControlOptions,
  type AdmissionRefusal,
  admissionControl,
} from './admission';
export { serveApiDocs } from './api-docs';
export {
  type ApiKeyEntry,
  MIN_API_KEY_LENGTH,
  type ResolvedApiKey,
  resolveApiKeys,
} from './api-keys';
export { apiReference } from './api-reference';
export {
  type ApiKey,
  type AuthVariables,
  bearerAuth,
  constantTimeEqual,
  type Principal,
  requireRole,
} from './bearer-auth';
export { CleanupStack } from './cleanup-stack';
export { clientOfAddress } from './client-address';
export { ConfigError, loadConfig, parseConfig } from './config';
export { integerSetting } from './config-settings';
export { installErrorHandling } from './error-handling';
export { healthRoutes, type ReadinessReport } from './health';
export { ServiceLifecycle } from './lifecycle';
export { createLogger, LOG_LEVELS, type Logger, type LogLevel, logLevelFromEnv } from './logger';
export {
  LATENCY_BUCKETS,
  type MetricsConfig,
  MetricsConfigSchema,
  packageVersion,
  ServiceMetrics,
  type TimedEvents,
  UNMATCHED_ROUTE,
} from './metrics';
export {
  type OpenApiDocumentOptions,
  type SecurityRequirement,
  serveOpenApiDocument,
} from './openapi-document';
export {
  bearerGuarded,
  type OpenApiProblem,
  openApiJson,
  openApiProblem,
  openApiProblems,
} from './openapi-route-parts';
export {
  PAGE_SHELL_STYLES,
  type PageShellBreadcrumb,
  type PageShellOptions,
  pageShell,
  pageShellStyleSource,
} from './page-shell';
export {
  fieldErrorsFromZod,
  type Problem,
  ProblemError,
  type ProblemFieldError,
  ProblemFieldErrorSchema,
  ProblemSchema,
  problemResponse,
} from './problem';
export {
  END_USER_HEADER,
  type RateLimitConfig,
  RateLimitConfigSchema,
  type RateLimitOptions,
  rateLimit,
} from './rate-limit';
export { REDACTED, redactSecrets } from './redact';
export { type RequestContextVariables, requestContext } from './request-context';
export { portFromEnv, runService, type StartedService } from './run-service';
export { isProduction } from './runtime-mode';
export {
  API_CONTENT_SECURITY_POLICY,
  API_SECURITY_HEADERS,
  securityHeaders,
} from './security-headers';
export {
  type HttpServerConfig,
  HttpServerConfigSchema,
  type RunningServer,
  startHttpServer,
} from './server';
export type { ServiceAppDeps } from './service-app-deps';
export { serviceConfigSections } from './service-config-sections';
export { installServiceFront, type ServiceFrontOptions } from './service-front';
export type { ServiceStartOptions } from './service-start-options';
export { ServiceStartup } from './service-startup';
export {
  openSharedLimits,
  SHARED_LIMITS_TABLE,
  type SharedCount,
  type SharedCounter,
  type SharedLimitRule,
  type SharedLimits,
  type SharedLimitsOptions,
} from './shared-limits';
export { strictUtf8, strictUtf8InSteps } from './strict-utf8';
export { KeyedTokenBuckets, TokenBucket, type TokenRate } from './token-bucket';
export { TurnBudget } from './turn-budget';
export { type DecodeUtf8Result, decodeUtf8, decodeUtf8InSteps } from './utf8';
export { zodValidationHook } from './zod-validation-hook';

// A module re-exported whole (`export *`) is public in everything it exports; from the others,
// the names listed.
export * from './admission';
export { serveApiDocs } from './api-docs';
export * from './api-keys';
export { apiReference } from './api-reference';
export * from './bearer-auth';
export { CleanupStack } from './cleanup-stack';
export { clientOfAddress } from './client-address';
export { ConfigError, loadConfig, parseConfig } from './config';
export { integerSetting } from './config-settings';
export { installErrorHandling } from './error-handling';
export { healthRoutes, type ReadinessReport } from './health';
export { ServiceLifecycle } from './lifecycle';
export { createLogger, LOG_LEVELS, type Logger, type LogLevel, logLevelFromEnv } from './logger';
export * from './metrics';
export * from './openapi-document';
export {
  bearerGuarded,
  type OpenApiProblem,
  openApiJson,
  openApiProblem,
  openApiProblems,
} from './openapi-route-parts';
export * from './page-shell';
export * from './problem';
export * from './rate-limit';
export { REDACTED, redactSecrets } from './redact';
export { type RequestContextVariables, requestContext } from './request-context';
export { portFromEnv, runService, type StartedService } from './run-service';
export { isProduction } from './runtime-mode';
export * from './security-headers';
export * from './server';
export type { ServiceAppDeps } from './service-app-deps';
export { serviceConfigSections } from './service-config-sections';
export { installServiceFront, type ServiceFrontOptions } from './service-front';
export type { ServiceStartOptions } from './service-start-options';
export { ServiceStartup } from './service-startup';
export * from './shared-limits';
export { strictUtf8, strictUtf8InSteps } from './strict-utf8';
export { KeyedTokenBuckets, TokenBucket, type TokenRate } from './token-bucket';
export { TurnBudget } from './turn-budget';
export { type DecodeUtf8Result, decodeUtf8, decodeUtf8InSteps } from './utf8';
export { zodValidationHook } from './zod-validation-hook';

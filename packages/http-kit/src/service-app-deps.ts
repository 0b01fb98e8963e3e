import type { ServiceLifecycle } from './lifecycle';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';
import type { SharedLimits } from './shared-limits';

/**
 * What every dcg service app is built from besides its own domain: a service's `…AppDeps`
 * extends it.
 *
 * @example
 * export interface KgAppDeps extends ServiceAppDeps { kb: KnowledgeBase }
 */
export interface ServiceAppDeps {
  logger: Logger;
  /** Drained on stop: `/ready` answers 503 while in-flight requests finish. */
  lifecycle?: ServiceLifecycle | undefined;
  /**
   * Prometheus metrics of this instance (default: a registry of its own without the process
   * metrics); the app registers its HTTP and domain metrics on it (once per registry).
   */
  metrics?: ServiceMetrics | undefined;
  /** Rate limit counters shared by the instances on PostgreSQL (absent: this instance's memory). */
  sharedLimits?: SharedLimits | undefined;
}

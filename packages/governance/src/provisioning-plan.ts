import { z } from 'zod';

/**
 * State of a provisioning plan. `terminated`: stopped by a governance rule before completion.
 *
 * @example
 * PlanStatusSchema.parse('terminated');
 */
export const PlanStatusSchema = z.enum(['running', 'completed', 'failed', 'terminated']);
/**
 * State of one component's task. `skipped`: not run because the plan stopped earlier;
 * `rolled_back`: provisioned, then unprovisioned because a later task of the plan failed.
 *
 * @example
 * TaskStatusSchema.parse('skipped');
 */
export const TaskStatusSchema = z.enum([
  'pending',
  'running',
  'completed',
  'failed',
  'skipped',
  'rolled_back',
]);

/**
 * What a deploy that stopped after provisioning some components left behind: the components
 * unprovisioned again (in reverse order), those still provisioned (their unprovision failed, or
 * the service stopped before undoing them), and those whose state is unknown (their provision
 * call was under way when the service stopped).
 *
 * @example
 * const left = plan.rollback?.remaining ?? [];
 */
export const PlanRollbackSchema = z.object({
  rolledBack: z.array(z.string()),
  remaining: z.array(z.string()),
  uncertain: z.array(z.string()),
});
/** What a stopped deploy left behind. */
export type PlanRollback = z.infer<typeof PlanRollbackSchema>;

/**
 * A log line of a task: the tech adapter's own logs plus the coordinator's.
 *
 * @example
 * const line: PlanLog = { timestamp: new Date().toISOString(), level: 'INFO', message: 'provisioned' };
 */
export const PlanLogSchema = z.object({
  timestamp: z.string(),
  level: z.enum(['DEBUG', 'INFO', 'WARNING', 'ERROR']),
  message: z.string(),
  phase: z.string().optional(),
});
/** A log line of a task. */
export type PlanLog = z.infer<typeof PlanLogSchema>;

/**
 * The provisioning task of one component.
 *
 * @example
 * const task: ProvisioningTask = { componentId: 'urn:dmb:cmp:a:b:0:c', templateId: 'urn:dmb:itm:x',
 *   status: 'pending', logs: [], errors: [] };
 */
export const ProvisioningTaskSchema = z.object({
  componentId: z.string(),
  componentName: z.string().optional(),
  templateId: z.string(),
  status: TaskStatusSchema,
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
  /** The `info` accepted from the tech adapter (stored with the deployed component). */
  info: z.record(z.string(), z.unknown()).nullable().optional(),
  logs: z.array(PlanLogSchema),
  errors: z.array(z.string()),
});
/** The provisioning task of one component. */
export type ProvisioningTask = z.infer<typeof ProvisioningTaskSchema>;

/**
 * A deploy or undeploy plan: one task per component with an infrastructure template, run in order.
 *
 * @example
 * const done = plan.status !== 'running';
 */
export const ProvisioningPlanSchema = z.object({
  id: z.string(),
  operation: z.enum(['deploy', 'undeploy']),
  environment: z.string(),
  systemId: z.string(),
  systemKind: z.string(),
  status: PlanStatusSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().optional(),
  tasks: z.array(ProvisioningTaskSchema),
  errors: z.array(z.string()),
  /** Set when a deploy stopped after provisioning some components. */
  rollback: PlanRollbackSchema.optional(),
  /** The system descriptor the plan works on (JSON form). */
  descriptor: z.record(z.string(), z.unknown()),
});
/** A deploy or undeploy plan. */
export type ProvisioningPlan = z.infer<typeof ProvisioningPlanSchema>;

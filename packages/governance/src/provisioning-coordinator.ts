import {
  type DocumentIssue,
  type DocumentLimits,
  type PathSegment,
  prefixIssues,
  type SystemDescriptor,
  safeParseDescriptorYaml,
  validateDescriptor,
} from '@dcg/contract-schema';
import { GovernanceError, type GovernanceIssueCode, governanceIssue } from './errors';
import type { GovernanceEvents } from './governance-events';
import { MAX_ENVIRONMENT_LENGTH } from './limits';
import type { Page } from './page';
import { PlanRunner } from './plan-runner';
import { describeRollback } from './plan-stop';
import type { ProvisioningPlan } from './provisioning-plan';
import type { GovernanceStore, PlanFilter } from './repositories';
import { newId } from './storage/row-mapping';
import type { TechAdapterClient } from './tech-adapter-client';
import type { TemplateRegistry } from './template-registry';

/**
 * A deploy or undeploy request: the environment and the system descriptor (YAML or JSON text, or
 * an object). Undeploy may name a deployed `systemId` instead of a descriptor.
 *
 * @example
 * const request: ProvisioningRequestInput = { environment: 'production', descriptor: yamlText };
 */
export interface ProvisioningRequestInput {
  environment: unknown;
  descriptor?: unknown;
  systemId?: unknown;
  removeData?: unknown;
}

/**
 * Dependencies of the {@link ProvisioningCoordinator}.
 *
 * @example
 * const deps: CoordinatorDeps = { store, registry, adapters: new TechAdapterClient(), events: new GovernanceEvents() };
 */
export interface CoordinatorDeps {
  store: GovernanceStore;
  registry: TemplateRegistry;
  adapters: TechAdapterClient;
  events: GovernanceEvents;
  clock?: () => Date;
  /** Depth and expanded-size limits of a YAML descriptor (defaults of `@dcg/contract-schema`). */
  descriptorLimits?: DocumentLimits;
  /** The service instance running the plans: they are its own while its lease lives. */
  instanceId?: string;
}

const INTERRUPTED = 'interrupted: the service stopped while the plan was running; deploy again';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(
  message: string,
  code: GovernanceIssueCode,
  segments: PathSegment[],
  detail = message,
): GovernanceError {
  return new GovernanceError('invalid_input', message, {
    issues: [governanceIssue(code, segments, detail)],
  });
}

/**
 * The error of a descriptor text that does not parse: a limit (`too_large`, `too_deep`) keeps
 * its own code, anything else is invalid input, all located at `descriptor`.
 */
function descriptorTextError(issue: DocumentIssue): GovernanceError {
  switch (issue.code) {
    case 'too_large':
    case 'too_deep': {
      const issueCode = issue.code === 'too_large' ? 'too_big' : 'too_deep';
      return new GovernanceError(issue.code, issue.message, {
        issues: [governanceIssue(issueCode, ['descriptor'], issue.message)],
      });
    }
    default:
      return invalid(
        'The descriptor is not valid YAML or JSON',
        'invalid_yaml',
        ['descriptor'],
        issue.message,
      );
  }
}

/**
 * The provisioning coordinator: turns a system descriptor into a plan with one task per component
 * that has an `infrastructureTemplateId`, and runs the tasks in order against each template's tech
 * adapter. Guardian components get the passive policy of the system's resource type in
 * `info.privateInfo.__dataContractGuardian.policyId`; a guardian whose template is missing, is not
 * a guardian template or has no policy for the resource type terminates the plan.
 *
 * @example
 * const coordinator = new ProvisioningCoordinator({ store, registry, adapters, events });
 * const plan = await coordinator.deploy({ environment: 'production', descriptor: yamlText });
 * await coordinator.idle();
 * console.log((await coordinator.getPlan(plan.id)).status);
 */
export class ProvisioningCoordinator {
  private readonly running = new Set<Promise<void>>();
  private readonly clock: () => Date;
  private readonly runner: PlanRunner;

  constructor(private readonly deps: CoordinatorDeps) {
    this.clock = deps.clock ?? (() => new Date());
    this.runner = new PlanRunner({
      store: deps.store,
      registry: deps.registry,
      adapters: deps.adapters,
      events: deps.events,
      now: () => this.now(),
      instanceId: deps.instanceId,
    });
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /** Validates the request, stores a running plan and starts it in the background. */
  deploy(input: ProvisioningRequestInput): Promise<ProvisioningPlan> {
    return this.start('deploy', input);
  }

  /** Like {@link deploy}, calling `unprovision` in reverse component order. */
  undeploy(input: ProvisioningRequestInput): Promise<ProvisioningPlan> {
    return this.start('undeploy', input);
  }

  /** The plan, or a `not_found` error. */
  async getPlan(id: string): Promise<ProvisioningPlan> {
    const plan = await this.deps.store.getPlan(id);
    if (!plan) throw new GovernanceError('not_found', `No provisioning plan with id "${id}"`);
    return plan;
  }

  /** Plans, newest first, optionally of one status and environment (`{ data, meta: { pagination } }`). */
  listPlans(filter: PlanFilter): Promise<Page<ProvisioningPlan>> {
    return this.deps.store.listPlans(filter);
  }

  /** Resolves when every plan started by this coordinator has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Marks plans left `running` by a process that is gone as failed: their progress is unknown, so
   * they must be re-run explicitly. With an `instanceId`, only plans whose owner holds no live
   * lease are touched (see `PlanLeases`), so instances sharing a database leave each other's
   * plans alone; without one, every running plan (call it once at start-up).
   */
  async recoverInterrupted(): Promise<number> {
    const { instanceId } = this.deps;
    const plans =
      instanceId === undefined
        ? await this.deps.store.listRunningPlans()
        : await this.deps.store.claimOrphanedPlans(instanceId);
    let marked = 0;
    for (const plan of plans) {
      const at = this.now();
      const uncertain: string[] = [];
      for (const task of plan.tasks) {
        if (task.status === 'running' || task.status === 'pending') {
          if (task.status === 'running') uncertain.push(task.componentId);
          task.status = task.status === 'running' ? 'failed' : 'skipped';
          if (task.status === 'failed') task.errors.push(INTERRUPTED);
          task.finishedAt = at;
        }
      }
      const errors = [...plan.errors, INTERRUPTED];
      let rollback = plan.rollback;
      if (plan.operation === 'deploy') {
        // What was provisioned and not undone stays listed, so an operator knows what to clean up.
        rollback = {
          rolledBack: plan.tasks
            .filter((t) => t.status === 'rolled_back')
            .map((t) => t.componentId),
          remaining: plan.tasks.filter((t) => t.status === 'completed').map((t) => t.componentId),
          uncertain: [...(plan.rollback?.uncertain ?? []), ...uncertain],
        };
        errors.push(describeRollback(rollback));
      }
      try {
        await this.deps.store.updatePlan(
          {
            ...plan,
            status: 'failed',
            errors,
            ...(rollback === undefined ? {} : { rollback }),
            updatedAt: at,
            finishedAt: at,
          },
          instanceId,
        );
        marked++;
      } catch (error) {
        // Claimed by another instance meanwhile (this one held no lease yet, see PlanLeases.start):
        // that instance marks it.
        if (!(GovernanceError.isInstance(error) && error.code === 'conflict')) throw error;
      }
    }
    return marked;
  }

  private async parseRequest(
    operation: 'deploy' | 'undeploy',
    input: ProvisioningRequestInput,
  ): Promise<{ environment: string; system: SystemDescriptor; removeData: boolean }> {
    if (!isObject(input)) {
      throw invalid(
        'The provisioning request must be an object',
        'invalid_type',
        [],
        'expected object',
      );
    }
    const { environment } = input;
    if (
      typeof environment !== 'string' ||
      environment.trim() === '' ||
      environment.length > MAX_ENVIRONMENT_LENGTH
    ) {
      throw invalid(
        'environment is required',
        environment === undefined ? 'required' : 'invalid_type',
        ['environment'],
        `expected a non-empty string of at most ${MAX_ENVIRONMENT_LENGTH} characters`,
      );
    }
    if (input.removeData !== undefined && typeof input.removeData !== 'boolean') {
      throw invalid(
        'removeData must be a boolean',
        'invalid_type',
        ['removeData'],
        'expected boolean',
      );
    }
    const removeData = input.removeData === true;
    if (
      input.descriptor === undefined &&
      operation === 'undeploy' &&
      typeof input.systemId === 'string'
    ) {
      const instance = await this.deps.store.getInstance(input.systemId, environment);
      if (!instance) {
        throw new GovernanceError(
          'not_found',
          `System "${input.systemId}" is not deployed in environment "${environment}"`,
        );
      }
      return { environment, system: instance.descriptor as SystemDescriptor, removeData };
    }
    let raw = input.descriptor;
    if (typeof raw === 'string') {
      const parsed = safeParseDescriptorYaml(raw, this.deps.descriptorLimits);
      if (!parsed.success) throw descriptorTextError(parsed.issues[0]!);
      raw = parsed.data;
    }
    if (raw === undefined || raw === null) {
      throw invalid(
        'descriptor is required',
        'required',
        ['descriptor'],
        'expected a YAML/JSON text or an object',
      );
    }
    const validation = validateDescriptor(raw, this.deps.descriptorLimits);
    if (!validation.success) {
      throw new GovernanceError('invalid_input', 'The descriptor is invalid', {
        issues: prefixIssues(['descriptor'], validation.issues),
      });
    }
    let system = validation.data;
    if (operation === 'undeploy') {
      // Unprovision with what was deployed: the stored descriptor carries each component's info.
      const instance = await this.deps.store.getInstance(system.id, environment);
      if (instance) system = instance.descriptor as SystemDescriptor;
    }
    return { environment, system, removeData };
  }

  private async start(
    operation: 'deploy' | 'undeploy',
    input: ProvisioningRequestInput,
  ): Promise<ProvisioningPlan> {
    const { environment, system, removeData } = await this.parseRequest(operation, input);
    // A guardian without a template is kept as a task: the check phase terminates the plan on it.
    const components = (system.components ?? []).filter(
      (c) =>
        (typeof c.infrastructureTemplateId === 'string' && c.infrastructureTemplateId !== '') ||
        (operation === 'deploy' && c.__dataContractGuardianSpec !== undefined),
    );
    const ordered = operation === 'deploy' ? components : [...components].reverse();
    const now = this.now();
    const plan: ProvisioningPlan = {
      id: newId(),
      operation,
      environment,
      systemId: system.id,
      systemKind: system.kind,
      status: 'running',
      createdAt: now,
      updatedAt: now,
      tasks: ordered.map((c) => ({
        componentId: c.id,
        ...(c.name === undefined ? {} : { componentName: c.name }),
        templateId:
          typeof c.infrastructureTemplateId === 'string' ? c.infrastructureTemplateId : '',
        status: 'pending',
        logs: [],
        errors: [],
      })),
      errors: [],
      descriptor: system as Record<string, unknown>,
    };
    await this.deps.store.createPlan(plan, this.deps.instanceId);
    const run = this.runner
      .run(structuredClone(plan), system, removeData)
      .catch(() => undefined)
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return plan;
  }
}

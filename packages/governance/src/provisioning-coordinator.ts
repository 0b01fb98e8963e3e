import {
  type ComponentDescriptor,
  type DocumentIssue,
  type DocumentLimits,
  explainProvisioningInfoViolation,
  findComponent,
  mergeProvisioningInfo,
  type PathSegment,
  prefixIssues,
  type SystemDescriptor,
  safeParseDescriptorYaml,
  stringifyDescriptorYaml,
  validateDescriptor,
  withCompleteInfo,
  withGuardianPolicyId,
} from '@dcg/contract-schema';
import { GovernanceError, type GovernanceIssueCode, governanceIssue } from './errors';
import type { GovernanceEvents } from './governance-events';
import { MAX_ENVIRONMENT_LENGTH } from './limits';
import type { Page } from './page';
import type { PlanLog, ProvisioningPlan, ProvisioningTask } from './provisioning-plan';
import type { GovernanceStore, PlanFilter } from './repositories';
import { newId } from './storage/row-mapping';
import type { TechAdapterClient } from './tech-adapter-client';
import type { RegisteredTemplate, TemplateRegistry } from './template-registry';

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

/** Stops the plan: `terminated` for governance rule breaches, `failed` for adapter failures. */
class PlanStop extends Error {
  constructor(
    readonly outcome: 'failed' | 'terminated',
    message: string,
    /** The adapter did provision the component (its answer was refused afterwards). */
    readonly provisioned = false,
  ) {
    super(message);
  }
}

const INTERRUPTED = 'interrupted: the service stopped while the plan was running; deploy again';

/** A sentence for the plan's errors: what a stopped deploy undid and what it left behind. */
function describeRollback(rollback: NonNullable<ProvisioningPlan['rollback']>): string {
  const parts: string[] = [];
  if (rollback.rolledBack.length > 0) {
    parts.push(`rolled back (unprovisioned, in reverse order): ${rollback.rolledBack.join(', ')}`);
  }
  if (rollback.remaining.length > 0) {
    parts.push(`still provisioned: ${rollback.remaining.join(', ')}`);
  }
  if (rollback.uncertain.length > 0) {
    parts.push(
      `possibly provisioned (its call ended without a COMPLETED or FAILED status, or the service stopped during it): ${rollback.uncertain.join(', ')}`,
    );
  }
  return parts.length === 0 ? 'nothing was provisioned' : parts.join('; ');
}

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

  constructor(private readonly deps: CoordinatorDeps) {
    this.clock = deps.clock ?? (() => new Date());
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
    const run = this.execute(structuredClone(plan), system, removeData)
      .catch(() => undefined)
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return plan;
  }

  private log(task: ProvisioningTask, level: PlanLog['level'], message: string): void {
    task.logs.push({ timestamp: this.now(), level, message, phase: 'coordinator' });
  }

  private async save(plan: ProvisioningPlan): Promise<void> {
    plan.updatedAt = this.now();
    await this.deps.store.updatePlan(plan, this.deps.instanceId);
  }

  /**
   * The request that provisions (or unprovisions) one component of the working descriptor. The
   * tech adapter API v2.2.0 request has no environment field of its own: the plan's environment
   * goes in the descriptor's `dataProduct.environment` (a field of the system descriptor), and
   * overrides whatever the submitted descriptor said, so a guardian deployed to `qa` reports to
   * `qa`.
   */
  private request(
    working: SystemDescriptor,
    componentId: string,
    removeData: boolean,
    environment: string,
  ) {
    return {
      descriptorKind: 'COMPONENT_DESCRIPTOR' as const,
      descriptor: stringifyDescriptorYaml({
        dataProduct: { ...working, environment },
        componentIdToProvision: componentId,
      }),
      removeData,
    };
  }

  /** Stops the plan at `task`: the task fails, the tasks not yet run are skipped. */
  private stopAt(plan: ProvisioningPlan, task: ProvisioningTask, stop: PlanStop): void {
    task.status = 'failed';
    task.finishedAt = this.now();
    task.errors.push(stop.message);
    this.log(task, 'ERROR', stop.message);
    for (const rest of plan.tasks) if (rest.status === 'pending') rest.status = 'skipped';
    plan.status = stop.outcome;
    plan.errors.push(stop.message);
  }

  private static asStop(error: unknown): PlanStop {
    return error instanceof PlanStop ? error : new PlanStop('failed', (error as Error).message);
  }

  /**
   * Checks the whole plan before anything is provisioned: every component's template is
   * registered; every guardian has a template id, a guardian template with a passive policy for
   * the system's resource type, and guards data contracts of this system; and (deploy) every tech
   * adapter accepts its request at `/v1/validate`. Sets each guardian's policy id in `working`.
   * Returns the template of each task, in task order.
   */
  private async check(
    plan: ProvisioningPlan,
    working: SystemDescriptor,
    removeData: boolean,
  ): Promise<RegisteredTemplate[]> {
    const components = working.components ?? [];
    const templates: RegisteredTemplate[] = [];
    for (const task of plan.tasks) {
      try {
        const index = components.findIndex((c) => c.id === task.componentId);
        const component = components[index];
        if (!component) {
          throw new PlanStop(
            'failed',
            `Component "${task.componentId}" vanished from the descriptor`,
          );
        }
        // The API's Info has both halves: send them, so an adapter's echo of `info` is valid.
        components[index] = withCompleteInfo(component);
        if (plan.operation === 'deploy' && component.__dataContractGuardianSpec !== undefined) {
          const policyId = await this.checkGuardian(
            component,
            task.templateId,
            working,
            plan.environment,
          );
          components[index] = withGuardianPolicyId(component, policyId);
          this.log(
            task,
            'INFO',
            `guardian: passive policy ${policyId} for resource type ${working.kind}`,
          );
        }
        // The template registered for the plan's environment (else its environment-less one).
        const template = await this.deps.registry.get(task.templateId, plan.environment);
        if (!template) {
          throw new PlanStop(
            'failed',
            `Component "${task.componentId}": its infrastructure template "${task.templateId}" is not registered for environment "${plan.environment}"`,
          );
        }
        templates.push(template);
      } catch (error) {
        throw Object.assign(ProvisioningCoordinator.asStop(error), { task });
      }
    }
    if (plan.operation !== 'deploy') return templates;
    for (const [i, task] of plan.tasks.entries()) {
      const url = templates[i]!.template.url;
      try {
        const verdict = await this.deps.adapters.validate(
          url,
          this.request(working, task.componentId, removeData, plan.environment),
        );
        if (!verdict.valid) {
          throw new PlanStop(
            'failed',
            `Component "${task.componentId}": the tech adapter refused it at validation: ${verdict.errors.join('; ') || 'no reason given'}`,
          );
        }
        this.log(task, 'INFO', `validated by ${url}`);
      } catch (error) {
        throw Object.assign(ProvisioningCoordinator.asStop(error), { task });
      }
    }
    return templates;
  }

  /**
   * After a failed deploy: unprovisions the components this plan provisioned, newest first, and
   * records on the plan what was undone, what remains and what may exist (saved after each step,
   * so a stop in the middle leaves an exact account).
   */
  private async rollBack(
    plan: ProvisioningPlan,
    working: SystemDescriptor,
    templates: RegisteredTemplate[],
    failed: {
      task: ProvisioningTask;
      /**
       * `provisioned`: the adapter provisioned it before its answer was refused (undone too);
       * `uncertain`: the call ended without a status (unreachable, an error answer, polling given
       * up), so the component may exist: reported, not undone; `no`: the adapter reported FAILED.
       */
      state: 'provisioned' | 'uncertain' | 'no';
    },
  ): Promise<void> {
    const done = plan.tasks
      .map((task, i) => ({ task, template: templates[i]! }))
      .filter(
        ({ task }) =>
          task.status === 'completed' || (task === failed.task && failed.state === 'provisioned'),
      )
      .reverse();
    const uncertain = failed.state === 'uncertain' ? [failed.task.componentId] : [];
    if (done.length === 0 && uncertain.length === 0) return;
    const rollback = {
      rolledBack: [] as string[],
      remaining: done.map((d) => d.task.componentId),
      uncertain,
    };
    plan.rollback = rollback;
    await this.save(plan);
    for (const { task, template } of done) {
      try {
        this.log(task, 'INFO', `rolling back: calling unprovision of ${template.template.url}`);
        const outcome = await this.deps.adapters.unprovision(
          template.template.url,
          this.request(working, task.componentId, false, plan.environment),
        );
        if (outcome.status === 'FAILED') {
          throw new Error(`the tech adapter reported FAILED: ${outcome.errors.join('; ')}`);
        }
        task.status = 'rolled_back';
        this.log(task, 'INFO', 'rolled back');
        rollback.rolledBack.push(task.componentId);
        rollback.remaining = rollback.remaining.filter((id) => id !== task.componentId);
      } catch (error) {
        const message = `rollback failed, the component remains provisioned: ${(error as Error).message}`;
        task.errors.push(message);
        this.log(task, 'ERROR', message);
      }
      await this.save(plan);
    }
    plan.errors.push(describeRollback(rollback));
  }

  private async execute(
    plan: ProvisioningPlan,
    system: SystemDescriptor,
    removeData: boolean,
  ): Promise<void> {
    // The working copy accumulates each adapter's accepted info, so later components see it.
    const working = structuredClone(system);
    try {
      let templates: RegisteredTemplate[];
      try {
        templates = await this.check(plan, working, removeData);
      } catch (error) {
        const stop = ProvisioningCoordinator.asStop(error);
        const task = (error as { task?: ProvisioningTask }).task;
        if (task) this.stopAt(plan, task, stop);
        else {
          plan.status = stop.outcome;
          plan.errors.push(stop.message);
        }
        for (const rest of plan.tasks) if (rest.status === 'pending') rest.status = 'skipped';
        plan.finishedAt = this.now();
        await this.save(plan);
        return;
      }
      await this.save(plan);
      for (const [i, task] of plan.tasks.entries()) {
        task.status = 'running';
        task.startedAt = this.now();
        await this.save(plan);
        try {
          await this.runTask(plan, task, working, removeData, templates[i]!);
          task.status = 'completed';
          task.finishedAt = this.now();
          await this.save(plan);
        } catch (error) {
          const stop = ProvisioningCoordinator.asStop(error);
          this.stopAt(plan, task, stop);
          if (plan.operation === 'deploy') {
            // A PlanStop comes from a status; anything else (no status) leaves the state unknown.
            const state = stop.provisioned
              ? 'provisioned'
              : error instanceof PlanStop
                ? 'no'
                : 'uncertain';
            await this.rollBack(plan, working, templates, { task, state });
          }
          plan.finishedAt = this.now();
          await this.save(plan);
          return;
        }
      }
      const at = this.now();
      if (plan.operation === 'deploy') {
        const instance = {
          systemId: working.id,
          environment: plan.environment,
          descriptor: working as Record<string, unknown>,
          deployedAt: at,
          planId: plan.id,
        };
        await this.deps.store.putInstance(instance);
        plan.status = 'completed';
        plan.finishedAt = at;
        await this.save(plan);
        await this.deps.events.emit('system.deployed', {
          systemId: working.id,
          environment: plan.environment,
          planId: plan.id,
          instance,
        });
      } else {
        await this.deps.store.deleteInstance(working.id, plan.environment);
        plan.status = 'completed';
        plan.finishedAt = at;
        await this.save(plan);
        await this.deps.events.emit('system.undeployed', {
          systemId: working.id,
          environment: plan.environment,
          planId: plan.id,
        });
      }
    } catch (error) {
      // Storage failed mid-plan: record it if the store still answers.
      plan.status = 'failed';
      plan.errors.push(`internal failure: ${(error as Error).message}`);
      plan.finishedAt = this.now();
      await this.save(plan).catch(() => undefined);
    }
  }

  /**
   * The passive policy id for a guardian component, or a PlanStop naming component and template:
   * the guardian needs a template id, a registered guardian template with a passive policy for
   * the system's resource type, and guards that name data contracts of this system.
   */
  private async checkGuardian(
    component: ComponentDescriptor,
    templateId: string,
    system: SystemDescriptor,
    environment: string,
  ): Promise<string> {
    const resourceType = system.kind;
    const who = `Guardian component "${component.id}"`;
    if (templateId === '') {
      throw new PlanStop(
        'terminated',
        `${who} has no infrastructureTemplateId, so it has no guardian template and no policy; the plan is terminated`,
      );
    }
    for (const [i, guard] of (component.__dataContractGuardianSpec?.guards ?? []).entries()) {
      const target = findComponent(system, guard.dataContractId);
      const where = `__dataContractGuardianSpec.guards[${i}].dataContractId "${guard.dataContractId}"`;
      if (!target) {
        throw new PlanStop(
          'terminated',
          `${who}: ${where} is not a component of the system "${system.id}"; the plan is terminated`,
        );
      }
      if (target.__dataContractEnabled !== true) {
        throw new PlanStop(
          'terminated',
          `${who}: ${where} is not a data contract (its __dataContractEnabled is not true); the plan is terminated`,
        );
      }
    }
    const registered = await this.deps.registry.get(templateId, environment);
    if (!registered) {
      throw new PlanStop(
        'terminated',
        `${who}: its infrastructure template "${templateId}" is not registered for environment "${environment}"; the plan is terminated`,
      );
    }
    if (!registered.guardian) {
      throw new PlanStop(
        'terminated',
        `${who}: its infrastructure template "${templateId}" is registered but is not a guardian template (no properties.dataContractGuardian); the plan is terminated`,
      );
    }
    const binding = registered.policies.find((p) => p.resourceType === resourceType);
    const policy = binding ? await this.deps.store.getPolicy(binding.policyId) : null;
    if (!binding || !policy || policy.trigger !== 'passive') {
      throw new PlanStop(
        'terminated',
        `${who}: the guardian template "${templateId}" has no passive policy for the system's resource type "${resourceType}"; the plan is terminated`,
      );
    }
    return policy.id;
  }

  private async runTask(
    plan: ProvisioningPlan,
    task: ProvisioningTask,
    working: SystemDescriptor,
    removeData: boolean,
    template: RegisteredTemplate,
  ): Promise<void> {
    const components = working.components ?? [];
    const index = components.findIndex((c) => c.id === task.componentId);
    const component = components[index];
    if (!component)
      throw new PlanStop('failed', `Component "${task.componentId}" vanished from the descriptor`);
    const guardian = component.__dataContractGuardianSpec !== undefined;
    const request = this.request(working, component.id, removeData, plan.environment);
    const op = plan.operation === 'deploy' ? 'provision' : 'unprovision';
    this.log(task, 'INFO', `calling ${op} of ${template.template.url}`);
    const outcome =
      op === 'provision'
        ? await this.deps.adapters.provision(template.template.url, request)
        : await this.deps.adapters.unprovision(template.template.url, request);
    for (const line of outcome.logs) {
      task.logs.push({
        timestamp: line.timestamp,
        level: line.level,
        message: line.message,
        ...(line.phase === undefined ? {} : { phase: line.phase }),
      });
    }
    if (outcome.status === 'FAILED') {
      throw new PlanStop(
        'failed',
        `Component "${task.componentId}": the tech adapter reported FAILED: ${outcome.errors.join('; ')}`,
      );
    }
    if (plan.operation === 'deploy') {
      if (guardian) {
        const violation = explainProvisioningInfoViolation(component.info, outcome.info);
        if (violation !== undefined) {
          throw new PlanStop('failed', `Component "${task.componentId}": ${violation}`, true);
        }
      }
      const info = mergeProvisioningInfo(component.info, outcome.info);
      task.info = info;
      if (info === null) {
        const { info: _drop, ...rest } = component;
        components[index] = rest;
      } else {
        components[index] = { ...component, info };
      }
    }
    this.log(task, 'INFO', `${op} completed`);
  }
}

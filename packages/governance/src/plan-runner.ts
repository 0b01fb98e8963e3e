import {
  explainProvisioningInfoViolation,
  mergeProvisioningInfo,
  type SystemDescriptor,
  stringifyDescriptorYaml,
} from '@dcg/contract-schema';
import type { GovernanceEvents } from './governance-events';
import { checkPlan, guardianPolicyIds, lookupsOfPlan, type PlanFacts } from './plan-check';
import { describeRollback, PlanStop } from './plan-stop';
import type { Policy } from './policy';
import type { PlanLog, ProvisioningPlan, ProvisioningTask } from './provisioning-plan';
import type { GovernanceStore } from './repositories';
import type { TechAdapterClient } from './tech-adapter-client';
import type { RegisteredTemplate, TemplateRegistry } from './template-registry';

/**
 * What a {@link PlanRunner} works with.
 *
 * @example
 * const deps: PlanRunnerDeps = { store, registry, adapters: new TechAdapterClient(), events, now: () => new Date().toISOString() };
 */
export interface PlanRunnerDeps {
  store: GovernanceStore;
  registry: TemplateRegistry;
  adapters: TechAdapterClient;
  events: GovernanceEvents;
  /** The time as an ISO string. */
  now: () => string;
  /** The service instance running the plans (see `PlanLeases`). */
  instanceId?: string | undefined;
}

/**
 * Runs a stored plan to its end: looks up what the check needs and checks the plan
 * ({@link checkPlan}), asks each tech adapter to validate its request (deploy), then provisions
 * or unprovisions the components in task order, saving the plan after each step. A failed deploy
 * rolls back what it provisioned. On success the marketplace instance is written (or deleted)
 * and `system.deployed` (`system.undeployed`) is emitted.
 *
 * @example
 * await new PlanRunner(deps).run(plan, system, false);
 */
export class PlanRunner {
  constructor(private readonly deps: PlanRunnerDeps) {}

  /** Runs the plan; never throws (a storage failure is recorded on the plan if it can be). */
  async run(plan: ProvisioningPlan, system: SystemDescriptor, removeData: boolean): Promise<void> {
    try {
      const check = checkPlan(plan, structuredClone(system), await this.facts(plan, system));
      for (const [taskIndex, policyId] of check.guardianPolicies) {
        this.log(
          plan.tasks[taskIndex]!,
          'INFO',
          `guardian: passive policy ${policyId} for resource type ${system.kind}`,
        );
      }
      if (!check.ok) return await this.stopBeforeStart(plan, check.taskIndex, check);
      const { working, templates } = check;
      if (plan.operation === 'deploy') {
        const refused = await this.validateAll(plan, working, removeData, templates);
        if (refused) return await this.stopBeforeStart(plan, refused.taskIndex, refused.stop);
      }
      await this.save(plan);
      for (const [i, task] of plan.tasks.entries()) {
        task.status = 'running';
        task.startedAt = this.deps.now();
        await this.save(plan);
        try {
          await this.runTask(plan, task, working, removeData, templates[i]!);
          task.status = 'completed';
          task.finishedAt = this.deps.now();
          await this.save(plan);
        } catch (error) {
          const stop = PlanStop.of(error);
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
          plan.finishedAt = this.deps.now();
          await this.save(plan);
          return;
        }
      }
      await this.finish(plan, working);
    } catch (error) {
      // Storage failed mid-plan: record it if the store still answers.
      plan.status = 'failed';
      plan.errors.push(`internal failure: ${(error as Error).message}`);
      plan.finishedAt = this.deps.now();
      await this.save(plan).catch(() => undefined);
    }
  }

  /** The templates and guardian policies the plan's check reads. */
  private async facts(plan: ProvisioningPlan, system: SystemDescriptor): Promise<PlanFacts> {
    const templates = new Map<string, RegisteredTemplate | null>();
    for (const id of lookupsOfPlan(plan).templateIds) {
      templates.set(id, await this.deps.registry.get(id, plan.environment));
    }
    const policies = new Map<string, Policy | null>();
    for (const id of guardianPolicyIds(templates.values(), system.kind)) {
      policies.set(id, await this.deps.store.getPolicy(id));
    }
    return { templates, policies };
  }

  /** Each tech adapter's `/v1/validate` of its request: the first refusal, if any. */
  private async validateAll(
    plan: ProvisioningPlan,
    working: SystemDescriptor,
    removeData: boolean,
    templates: RegisteredTemplate[],
  ): Promise<{ taskIndex: number; stop: PlanStop } | undefined> {
    for (const [taskIndex, task] of plan.tasks.entries()) {
      const url = templates[taskIndex]!.template.url;
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
        return { taskIndex, stop: PlanStop.of(error) };
      }
    }
    return undefined;
  }

  /** Ends a plan that its check or validation stopped: nothing was provisioned. */
  private async stopBeforeStart(
    plan: ProvisioningPlan,
    taskIndex: number,
    stop: { outcome: 'failed' | 'terminated'; message: string },
  ): Promise<void> {
    this.stopAt(plan, plan.tasks[taskIndex]!, stop);
    plan.finishedAt = this.deps.now();
    await this.save(plan);
  }

  /** A completed plan: the marketplace instance written (deploy) or deleted, the event emitted. */
  private async finish(plan: ProvisioningPlan, working: SystemDescriptor): Promise<void> {
    const at = this.deps.now();
    const ids = { systemId: working.id, environment: plan.environment, planId: plan.id };
    const instance = { ...ids, descriptor: working as Record<string, unknown>, deployedAt: at };
    if (plan.operation === 'deploy') await this.deps.store.putInstance(instance);
    else await this.deps.store.deleteInstance(working.id, plan.environment);
    plan.status = 'completed';
    plan.finishedAt = at;
    await this.save(plan);
    if (plan.operation === 'deploy')
      await this.deps.events.emit('system.deployed', { ...ids, instance });
    else await this.deps.events.emit('system.undeployed', ids);
  }

  private log(task: ProvisioningTask, level: PlanLog['level'], message: string): void {
    task.logs.push({ timestamp: this.deps.now(), level, message, phase: 'coordinator' });
  }

  private async save(plan: ProvisioningPlan): Promise<void> {
    plan.updatedAt = this.deps.now();
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
  private stopAt(
    plan: ProvisioningPlan,
    task: ProvisioningTask,
    stop: { outcome: 'failed' | 'terminated'; message: string },
  ): void {
    task.status = 'failed';
    task.finishedAt = this.deps.now();
    task.errors.push(stop.message);
    this.log(task, 'ERROR', stop.message);
    for (const rest of plan.tasks) if (rest.status === 'pending') rest.status = 'skipped';
    plan.status = stop.outcome;
    plan.errors.push(stop.message);
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

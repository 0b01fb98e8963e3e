import type { DocumentLimits } from '@dcg/contract-schema';
import { EvaluationResults, type EvaluationResultsOptions } from './evaluation-results';
import { type GovernanceEventName, GovernanceEvents } from './governance-events';
import { MarketplaceProjection } from './marketplace-projection';
import { PlanLeases } from './plan-leases';
import { PolicyCatalog } from './policy-catalog';
import { ProvisioningCoordinator } from './provisioning-coordinator';
import type { GovernanceStore } from './repositories';
import { newId } from './storage/row-mapping';
import { TechAdapterClient, type TechAdapterClientOptions } from './tech-adapter-client';
import { TemplateRegistry } from './template-registry';

/**
 * Every governance service wired over one store.
 *
 * @example
 * const governance = createGovernance(store);
 * await governance.templates.register(body);
 */
export interface Governance {
  store: GovernanceStore;
  templates: TemplateRegistry;
  policies: PolicyCatalog;
  results: EvaluationResults;
  coordinator: ProvisioningCoordinator;
  marketplace: MarketplaceProjection;
  events: GovernanceEvents;
  /** This instance's lease on its plans: `start()` before serving, `stop()` at shutdown. */
  leases: PlanLeases;
}

/**
 * Options of {@link createGovernance}.
 *
 * @example
 * const options: GovernanceOptions = { adapters: { pollIntervalMs: 100 } };
 */
export interface GovernanceOptions {
  adapters?: TechAdapterClientOptions;
  /** Depth and expanded-size limits of YAML descriptors sent to the coordinator. */
  descriptorLimits?: DocumentLimits;
  results?: EvaluationResultsOptions;
  /**
   * The id of this service instance: the plans it starts are its own while it renews its lease
   * (see `PlanLeases`); default: a random id.
   */
  instanceId?: string;
  clock?: () => Date;
  onListenerError?: (error: unknown, event: GovernanceEventName) => void;
  /** Lease timing of {@link PlanLeases} (default 30 s, renewed every 10 s) and its error report. */
  leases?: { leaseMs?: number; renewMs?: number; onError?: (error: unknown) => void };
}

/**
 * Wires the template registry, policy catalog, evaluation results, provisioning coordinator,
 * marketplace projection and events over one store.
 *
 * @example
 * const governance = createGovernance(await openSqliteStore({ file: 'governance.db' }));
 * governance.events.on('system.deployed', (e) => console.log(e.systemId));
 */
export function createGovernance(
  store: GovernanceStore,
  options: GovernanceOptions = {},
): Governance {
  const clock = options.clock ?? (() => new Date());
  const events = new GovernanceEvents(options.onListenerError);
  const templates = new TemplateRegistry(store, clock);
  const instanceId = options.instanceId ?? newId();
  const coordinator = new ProvisioningCoordinator({
    store,
    registry: templates,
    adapters: new TechAdapterClient(options.adapters),
    events,
    clock,
    instanceId,
    ...(options.descriptorLimits === undefined
      ? {}
      : { descriptorLimits: options.descriptorLimits }),
  });
  return {
    store,
    templates,
    policies: new PolicyCatalog(store, clock),
    results: new EvaluationResults(store, clock, options.results),
    coordinator,
    marketplace: new MarketplaceProjection(store),
    events,
    leases: new PlanLeases(store, coordinator, { ...options.leases, instanceId }),
  };
}

import type { DocumentLimits } from '@dcg/contract-schema';
import { EvaluationResults } from './evaluation-results';
import { type GovernanceEventName, GovernanceEvents } from './governance-events';
import { MarketplaceProjection } from './marketplace-projection';
import { PolicyCatalog } from './policy-catalog';
import { ProvisioningCoordinator } from './provisioning-coordinator';
import type { GovernanceStore } from './repositories';
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
  clock?: () => Date;
  onListenerError?: (error: unknown, event: GovernanceEventName) => void;
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
  return {
    store,
    templates,
    policies: new PolicyCatalog(store, clock),
    results: new EvaluationResults(store, clock),
    coordinator: new ProvisioningCoordinator({
      store,
      registry: templates,
      adapters: new TechAdapterClient(options.adapters),
      events,
      clock,
      ...(options.descriptorLimits === undefined
        ? {}
        : { descriptorLimits: options.descriptorLimits }),
    }),
    marketplace: new MarketplaceProjection(store),
    events,
  };
}

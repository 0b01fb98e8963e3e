import type { MarketplaceInstanceView } from '@dcg/governance';

/** One place where a data contract is deployed. */
export interface ContractLocation {
  environment: string;
  instance: Pick<MarketplaceInstanceView, 'systemId' | 'name' | 'kind'>;
  component: { id: string; name?: string; kind?: string };
}

/**
 * Every instance component with this id, across the given instances (one per environment it is
 * deployed in), sorted by environment.
 *
 * @example
 * const places = findContractLocations(await readModel.listInstances({}), 'urn:dmb:cmp:finance:orders:0:port');
 */
export function findContractLocations(
  instances: MarketplaceInstanceView[],
  contractId: string,
): ContractLocation[] {
  const found: ContractLocation[] = [];
  for (const instance of instances) {
    for (const component of instance.components) {
      if (component.id !== contractId) continue;
      found.push({
        environment: instance.environment,
        instance: { systemId: instance.systemId, name: instance.name, kind: instance.kind },
        component: {
          id: component.id,
          ...(component.name === undefined ? {} : { name: component.name }),
          ...(component.kind === undefined ? {} : { kind: component.kind }),
        },
      });
    }
  }
  return found.sort((a, b) => a.environment.localeCompare(b.environment));
}

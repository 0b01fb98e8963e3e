import type { MarketplaceInstanceView } from '@dcg/governance';

/** One place where a data contract is deployed. */
export interface ContractLocation {
  environment: string;
  instance: Pick<MarketplaceInstanceView, 'systemId' | 'name' | 'kind'>;
  component: { id: string; name?: string; kind?: string; publicInfo?: Record<string, unknown> };
  /** Display names of every component of the instance, by id (to title subcomponent targets). */
  componentNames: ReadonlyMap<string, string>;
}

/**
 * Every data-contract component with this id, across the given instances (one per environment it is
 * deployed in), sorted by environment.
 *
 * @example
 * const places = findContractLocations(await readModel.findContractInstances(id), id);
 */
export function findContractLocations(
  instances: MarketplaceInstanceView[],
  contractId: string,
): ContractLocation[] {
  const found: ContractLocation[] = [];
  for (const instance of instances) {
    let names: Map<string, string> | undefined;
    for (const component of instance.components) {
      // A component of that id that is not a data contract is no place of the contract.
      if (component.id !== contractId || !component.dataContract) continue;
      names ??= new Map(
        instance.components.flatMap((c) => (c.name === undefined ? [] : [[c.id, c.name] as const])),
      );
      found.push({
        environment: instance.environment,
        instance: { systemId: instance.systemId, name: instance.name, kind: instance.kind },
        component: {
          id: component.id,
          ...(component.name === undefined ? {} : { name: component.name }),
          ...(component.kind === undefined ? {} : { kind: component.kind }),
          ...(component.publicInfo === undefined ? {} : { publicInfo: component.publicInfo }),
        },
        componentNames: names,
      });
    }
  }
  return found.sort((a, b) => a.environment.localeCompare(b.environment));
}

import type { ComponentDescriptor } from './descriptor';

/** One data contract to report on: its `resource.id` and the keys of `details.results`. */
export interface ContractTarget {
  resourceId: string;
  component: ComponentDescriptor;
  resultKeys: string[];
}

/** Options of {@link selectContractTargets}. */
export interface SelectContractTargetsOptions {
  /** Keep only the contracts this guardian lists in `__dataContractGuardianSpec.guards`. */
  guardian?: ComponentDescriptor | undefined;
}

function hasOwnSpecification(component: ComponentDescriptor): boolean {
  const contract = component.dataContract;
  return typeof contract === 'object' && contract !== null && Object.keys(contract).length > 0;
}

function collect(components: ReadonlyArray<ComponentDescriptor>, into: ContractTarget[]): void {
  for (const component of components) {
    const subcomponents = component.components ?? [];
    if (component.__dataContractEnabled === true) {
      // A data contract reports `root` for itself, plus each consumable subcomponent that carries
      // its own specification (distributed definition); the rest is covered by `root`.
      const distributed = subcomponents
        .filter((sub) => sub.consumable === true && hasOwnSpecification(sub))
        .map((sub) => sub.id);
      into.push({ resourceId: component.id, component, resultKeys: ['root', ...distributed] });
    } else {
      // Not a data contract itself: its enabled subcomponents are independent contracts.
      collect(subcomponents, into);
    }
  }
}

/**
 * A5 target selection: the data contracts of a system and, for each, the `resource.id` of its
 * evaluation result and the keys of `details.results`.
 *
 * @example
 * selectContractTargets({
 *   id: 'urn:dmb:dp:finance:invoices:0',
 *   kind: 'dataproduct',
 *   components: [{ id: 'urn:dmb:cmp:finance:invoices:0:orders-port', __dataContractEnabled: true }],
 * });
 * // [{ resourceId: 'urn:dmb:cmp:finance:invoices:0:orders-port', resultKeys: ['root'], component: … }]
 */
export function selectContractTargets(
  system: { components?: ReadonlyArray<ComponentDescriptor> | undefined },
  options: SelectContractTargetsOptions = {},
): ContractTarget[] {
  const targets: ContractTarget[] = [];
  collect(system.components ?? [], targets);
  const guards = options.guardian?.__dataContractGuardianSpec?.guards;
  if (options.guardian === undefined) return targets;
  const guarded = new Set((guards ?? []).map((guard) => guard.dataContractId));
  return targets.filter((target) => guarded.has(target.resourceId));
}

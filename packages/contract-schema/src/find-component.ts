import type { ComponentDescriptor } from './descriptor';

/**
 * The component (or subcomponent, at any depth) with the given id.
 *
 * @example
 * findComponent(system, 'urn:dmb:cmp:finance:invoices:0:guardian')?.kind; // 'workload'
 */
export function findComponent(
  container: { components?: ReadonlyArray<ComponentDescriptor> | undefined },
  id: string,
): ComponentDescriptor | undefined {
  for (const component of container.components ?? []) {
    if (component.id === id) return component;
    const nested = findComponent(component, id);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

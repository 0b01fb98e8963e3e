/**
 * The ids of every component of a system descriptor, nested ones included, each once. Both stores
 * index them so "where is this component deployed" reads an index instead of every instance.
 *
 * @example
 * componentIds({ id: 'urn:dmb:dp:a:b:0', components: [{ id: 'urn:dmb:cmp:a:b:0:port' }] });
 * // ['urn:dmb:cmp:a:b:0:port']
 */
export function componentIds(descriptor: Record<string, unknown>): string[] {
  const ids = new Set<string>();
  const visit = (components: unknown): void => {
    if (!Array.isArray(components)) return;
    for (const component of components) {
      if (typeof component !== 'object' || component === null || Array.isArray(component)) continue;
      const { id, components: children } = component as Record<string, unknown>;
      // PostgreSQL text cannot hold NUL; skip such ids in every store alike.
      if (typeof id === 'string' && !id.includes('\u0000')) ids.add(id);
      visit(children);
    }
  };
  visit(descriptor.components);
  return [...ids];
}

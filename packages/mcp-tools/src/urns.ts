/**
 * The system of a component, from the component's URN: `urn:dmb:cmp:<domain>:<name>:<major>:<component>`
 * belongs to `urn:dmb:dp:<domain>:<name>:<major>`. Undefined when the id is not of that form.
 *
 * @example
 * systemOfComponent('urn:dmb:cmp:finance:orders:0:orders-port'); // 'urn:dmb:dp:finance:orders:0'
 */
export function systemOfComponent(componentId: string): string | undefined {
  const parts = componentId.split(':');
  if (parts.length < 7 || parts[0] !== 'urn' || parts[1] !== 'dmb' || parts[2] !== 'cmp') {
    return undefined;
  }
  if (parts.slice(3, 7).some((part) => part === '')) return undefined;
  return `urn:dmb:dp:${parts[3]}:${parts[4]}:${parts[5]}`;
}

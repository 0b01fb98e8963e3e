import {
  type ComponentDescriptor,
  getGuardianPolicyId,
  selectContractTargets,
} from '@dcg/contract-schema';
import type { ContractGuard } from './repositories';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Guardian components of a system, at any depth: those with `__dataContractGuardianSpec`. */
function guardians(components: unknown, into: ComponentDescriptor[]): void {
  if (!Array.isArray(components)) return;
  for (const component of components) {
    if (!isObject(component)) continue;
    if (isObject(component.__dataContractGuardianSpec)) {
      into.push(component as unknown as ComponentDescriptor);
    }
    guardians(component.components, into);
  }
}

/**
 * What a deployed system's guardians guard: for each guardian component that was deployed with a
 * passive policy (`info.privateInfo.__dataContractGuardian.policyId`, written by the coordinator),
 * each data contract of the system it guards, as A5 target selection decides (`guards[]` entries
 * that are data contracts of the system). Results for a contract are accepted in an environment
 * only under the policy of a guardian that guards it there.
 *
 * @example
 * guardedContracts(instance.descriptor, { systemId: instance.systemId, environment: 'production' });
 * // [{ contractId: 'urn:dmb:cmp:finance:orders:0:orders-port', policyId: 'p1', guardianId: '…:guardian', … }]
 */
export function guardedContracts(
  descriptor: Record<string, unknown>,
  where: { systemId: string; environment: string },
): ContractGuard[] {
  if (!Array.isArray(descriptor.components)) return [];
  const found: ComponentDescriptor[] = [];
  guardians(descriptor.components, found);
  const guards: ContractGuard[] = [];
  const seen = new Set<string>();
  const system = descriptor as { components?: ComponentDescriptor[] };
  for (const guardian of found) {
    const policyId = getGuardianPolicyId(guardian);
    if (policyId === undefined || typeof guardian.id !== 'string') continue;
    for (const target of selectContractTargets(system, { guardian })) {
      const key = `${target.resourceId}\u0000${policyId}\u0000${guardian.id}`;
      // PostgreSQL text cannot hold NUL; such ids cannot be submitted either.
      if (seen.has(key) || `${target.resourceId}${policyId}${guardian.id}`.includes('\u0000'))
        continue;
      seen.add(key);
      guards.push({
        contractId: target.resourceId,
        environment: where.environment,
        policyId,
        guardianId: guardian.id,
        systemId: where.systemId,
      });
    }
  }
  return guards;
}

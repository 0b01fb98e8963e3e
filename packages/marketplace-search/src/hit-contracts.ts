import { contractStateOf, type InstanceCompliance, instanceCompliance } from '@dcg/contract-schema';
import type { InstanceComponent, SearchHitContract } from '@dcg/governance-schema';

/**
 * What a hit says of an instance's data contracts: each one's latest state and their roll-up.
 *
 * @example
 * const contracts: InstanceContracts = { compliance: 'compliant', dataContracts: [{ id, status: 'compliant' }] };
 */
export interface InstanceContracts {
  compliance: InstanceCompliance;
  dataContracts: readonly SearchHitContract[];
}

/**
 * What a search hit says of an instance's data contracts: each data-contract component with its
 * latest state (`unknown` until a result arrives) and their roll-up (`none` without any).
 *
 * @example
 * instanceContracts(instance.components).compliance; // 'violated'
 */
export function instanceContracts(
  components: readonly Pick<InstanceComponent, 'id' | 'name' | 'dataContract' | 'compliance'>[],
): InstanceContracts {
  const dataContracts = components
    .filter((c) => c.dataContract)
    .map((c) => ({
      id: c.id,
      ...(c.name === undefined ? {} : { name: c.name }),
      status: contractStateOf(c.compliance),
    }));
  return { compliance: instanceCompliance(dataContracts.map((c) => c.status)), dataContracts };
}

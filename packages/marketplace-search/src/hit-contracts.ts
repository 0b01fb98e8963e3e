import { instanceCompliance } from '@dcg/contract-schema';
import type { InstanceComponent } from '@dcg/governance-schema';
import type { InstanceContracts } from './marketplace-search';

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
      status: c.compliance?.status ?? 'unknown',
    }));
  return { compliance: instanceCompliance(dataContracts.map((c) => c.status)), dataContracts };
}

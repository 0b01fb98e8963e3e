import type {
  ContractComplianceView,
  MarketplaceInstanceView,
  MarketplaceReadModel,
} from './marketplace-views';

/** A component of a marketplace instance. */
type InstanceComponent = MarketplaceInstanceView['components'][number];

/**
 * What the marketplace knows of an id asked for as a data contract in one environment:
 * - `data-contract`: a deployed data contract (rule A5), or one known from its results only
 *   (`instances` empty: its system is no longer deployed there);
 * - `not-a-data-contract`: a deployed component that is not a data contract;
 * - `unknown`: neither deployed there nor reported on there.
 *
 * @example
 * const found = await findDataContract(readModel, 'urn:dmb:cmp:a:b:0:port', 'production');
 * if (found.kind === 'unknown') return notFound();
 */
export type DataContractLookup =
  | {
      kind: 'data-contract';
      compliance: ContractComplianceView;
      /** The instances that deploy it as a data contract, by environment. */
      instances: MarketplaceInstanceView[];
    }
  | { kind: 'not-a-data-contract'; instance: MarketplaceInstanceView; component: InstanceComponent }
  | { kind: 'unknown' };

/**
 * Decides what an id is in one environment, from the instances that deploy a component of that id
 * there and its compliance view: the one rule behind the 404s of the marketplace API and pages.
 *
 * @example
 * const found = lookUpDataContract(id, await readModel.findContractInstances(id, env), await readModel.getContractCompliance(id, env));
 */
export function lookUpDataContract(
  contractId: string,
  deployedIn: readonly MarketplaceInstanceView[],
  compliance: ContractComplianceView,
): DataContractLookup {
  const asContract = deployedIn.filter((instance) =>
    instance.components.some((c) => c.id === contractId && c.dataContract),
  );
  if (asContract.length > 0) return { kind: 'data-contract', compliance, instances: asContract };
  for (const instance of deployedIn) {
    const component = instance.components.find((c) => c.id === contractId);
    if (component) return { kind: 'not-a-data-contract', instance, component };
  }
  // Not deployed (any more): results still make it known.
  return compliance.status === 'unknown'
    ? { kind: 'unknown' }
    : { kind: 'data-contract', compliance, instances: [] };
}

/**
 * {@link lookUpDataContract} over a read model: both reads run at once, each from an index.
 *
 * @example
 * const found = await findDataContract(governance.marketplace, contractId, 'production');
 */
export async function findDataContract(
  readModel: Pick<MarketplaceReadModel, 'findContractInstances' | 'getContractCompliance'>,
  contractId: string,
  environment: string,
): Promise<DataContractLookup> {
  const [deployedIn, compliance] = await Promise.all([
    readModel.findContractInstances(contractId, environment),
    readModel.getContractCompliance(contractId, environment),
  ]);
  return lookUpDataContract(contractId, deployedIn, compliance);
}

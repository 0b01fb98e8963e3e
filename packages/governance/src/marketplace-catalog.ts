import {
  COMPLIANCE_SEVERITY_ORDER,
  contractStatesOf,
  type InstanceCompliance,
  InstanceComplianceSchema,
  instanceCompliance,
} from '@dcg/contract-schema';
import type { MarketplaceInstanceView } from './marketplace-views';

/** What a catalog says about a system besides its name: from its deployed descriptor. */
export interface SystemFacts {
  description?: string;
  domain?: string;
  /** Display name of the owner when the descriptor gives one, else the owner's id. */
  owner?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * The description, domain and owner of a system descriptor: `description`, `domain`, and the
 * owner as Witboost descriptors name it (`dataProductOwnerDisplayName`, else `dataProductOwner`,
 * else a plain `owner`). A `domain` given as a URN (`urn:dmb:dmn:finance`) shows its last part.
 *
 * @example
 * systemFacts({ domain: 'urn:dmb:dmn:finance', dataProductOwner: 'user:jane' }); // { domain: 'finance', owner: 'user:jane' }
 */
export function systemFacts(descriptor: Record<string, unknown>): SystemFacts {
  const description = text(descriptor.description);
  const domain = text(descriptor.domain);
  const owner =
    text(descriptor.dataProductOwnerDisplayName) ??
    text(descriptor.dataProductOwner) ??
    text(descriptor.owner);
  return {
    ...(description === undefined ? {} : { description }),
    ...(domain === undefined
      ? {}
      : { domain: domain.startsWith('urn:') ? (domain.split(':').at(-1) ?? domain) : domain }),
    ...(owner === undefined ? {} : { owner }),
  };
}

/**
 * The compliance of an instance as a whole: the most severe state of its data contracts, `none`
 * without any (`instanceCompliance` of `@dcg/contract-schema`).
 *
 * @example
 * instanceComplianceOf(instance); // 'violated'
 */
export function instanceComplianceOf(instance: MarketplaceInstanceView): InstanceCompliance {
  return instance.compliance ?? instanceCompliance(contractStatesOf(instance.components));
}

/** The instance states from the most to the least severe, `none` (no data contract) last. */
export const INSTANCE_COMPLIANCE_ORDER: readonly InstanceCompliance[] = [
  ...COMPLIANCE_SEVERITY_ORDER,
  'none',
];

/** What a catalog list shows: how many instances are in each state, and those it lists. */
export interface CatalogOverview {
  /** Instances per compliance state, before the state filter (so every choice shows its count). */
  counts: Record<InstanceCompliance, number>;
  /** The instances in the asked states, worst state first, then by name and environment. */
  instances: MarketplaceInstanceView[];
}

/**
 * Counts the instances per compliance state, keeps those in the asked states (all without a
 * filter) and sorts them worst first, as an owner on call reads a catalog.
 *
 * @example
 * const { counts, instances } = catalogOverview(all, { compliance: ['violated'] });
 */
export function catalogOverview(
  all: readonly MarketplaceInstanceView[],
  filter: { compliance?: readonly InstanceCompliance[] } = {},
): CatalogOverview {
  const counts = Object.fromEntries(INSTANCE_COMPLIANCE_ORDER.map((state) => [state, 0])) as Record<
    InstanceCompliance,
    number
  >;
  const rank = new Map(INSTANCE_COMPLIANCE_ORDER.map((state, index) => [state, index]));
  const withState = all.map((instance) => ({ instance, state: instanceComplianceOf(instance) }));
  for (const { state } of withState) counts[state] += 1;
  const wanted =
    filter.compliance && filter.compliance.length > 0 ? new Set(filter.compliance) : undefined;
  const instances = withState
    .filter(({ state }) => wanted === undefined || wanted.has(state))
    .sort(
      (a, b) =>
        (rank.get(a.state) ?? 0) - (rank.get(b.state) ?? 0) ||
        a.instance.name.localeCompare(b.instance.name) ||
        a.instance.environment.localeCompare(b.instance.environment),
    )
    .map(({ instance }) => instance);
  return { counts, instances };
}

/**
 * The compliance filter of a query (`violated`, `violated,unknown`, repeated parameters), in the
 * API's vocabulary: `success: false` with the unknown values.
 *
 * @example
 * parseComplianceFilter(['violated,unknown']); // { success: true, data: ['violated', 'unknown'] }
 */
export function parseComplianceFilter(
  values: readonly string[],
):
  | { success: true; data: InstanceCompliance[] }
  | { success: false; unknown: string[]; allowed: readonly InstanceCompliance[] } {
  const parts = values
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
  const unknown = parts.filter((part) => !InstanceComplianceSchema.safeParse(part).success);
  if (unknown.length > 0) {
    return { success: false, unknown, allowed: INSTANCE_COMPLIANCE_ORDER };
  }
  return { success: true, data: [...new Set(parts)] as InstanceCompliance[] };
}

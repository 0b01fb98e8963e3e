import type { InstanceRecord } from './repositories';

/**
 * A deployed system descriptor as the marketplace may show it: what was deployed, with the
 * `info.publicInfo` each tech adapter returned, but never its `info.privateInfo` (that stays
 * behind the provisioning API and its keys).
 *
 * @example
 * const view = publicDeployedDescriptor(await store.getInstance(systemId, 'production'));
 */
export interface DeployedDescriptor {
  systemId: string;
  environment: string;
  planId: string;
  deployedAt: string;
  descriptor: Record<string, unknown>;
}

/**
 * The public view of an instance record: its descriptor with every component's (at any depth)
 * `info.privateInfo` left out.
 *
 * @example
 * publicDeployedDescriptor(record).descriptor.components;
 */
export function publicDeployedDescriptor(record: InstanceRecord): DeployedDescriptor {
  return {
    systemId: record.systemId,
    environment: record.environment,
    planId: record.planId,
    deployedAt: record.deployedAt,
    descriptor: withoutPrivateInfo(record.descriptor),
  };
}

function withoutPrivateInfo(node: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...node };
  if (isRecord(copy.info) && 'privateInfo' in copy.info) {
    const { privateInfo: _private, ...publicPart } = copy.info;
    copy.info = publicPart;
  }
  if (Array.isArray(copy.components)) {
    copy.components = copy.components.map((component) =>
      isRecord(component) ? withoutPrivateInfo(component) : component,
    );
  }
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

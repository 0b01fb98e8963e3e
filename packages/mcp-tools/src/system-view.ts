import {
  type DeployedDescriptor,
  InstanceComponentSchema,
  type MarketplaceInstance,
  MarketplaceInstanceSchema,
} from '@dcg/governance-schema';
import type { MarketplaceClient } from '@dcg/marketplace-client';
import { z } from 'zod';
import { describeFailure } from './tool-errors';

// The badge as the marketplace API answers it: its wire schema, not a copy that could drift.
const { compliance } = InstanceComponentSchema.shape;

/** A component of a system as the tools answer it. */
export const ComponentViewSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  kind: z.string().optional(),
  description: z.string().optional(),
  /** True when the component is a monitored data contract (an output port with a guardian). */
  isDataContract: z.boolean(),
  compliance,
  /** The data contract of an output port (schema, SLA, terms, endpoint…), as deployed. */
  dataContract: z.record(z.string(), z.unknown()).optional(),
});
export type ComponentView = z.infer<typeof ComponentViewSchema>;

const { systemId, name, kind, environment, version, deployedAt } = MarketplaceInstanceSchema.shape;

/** A deployed system with its output ports and their data contracts. */
export const SystemViewSchema = z.object({
  systemId,
  name,
  kind,
  environment,
  version,
  deployedAt,
  domain: z.string().optional(),
  description: z.string().optional(),
  outputPorts: z.array(ComponentViewSchema),
  otherComponents: z.array(ComponentViewSchema),
  /** Whether the deployed descriptor (with the data contracts) could be read. */
  descriptorRead: z.boolean(),
  note: z.string().optional(),
});
export type SystemView = z.infer<typeof SystemViewSchema>;

/**
 * Reads a deployed system: the marketplace view (components, compliance), joined with the deployed
 * descriptor (output ports' data contracts). Null when the system is not deployed (in that
 * environment).
 *
 * @example
 * const view = await readSystem(marketplace, 'urn:dmb:dp:finance:orders:0', 'production');
 */
export async function readSystem(
  marketplace: MarketplaceClient,
  systemId: string,
  environment: string | undefined,
  signal?: AbortSignal,
): Promise<SystemView | null> {
  const instance = await marketplace.getInstance(systemId, { environment, signal });
  return instance ? (await readDeployedSystem(marketplace, instance, signal)).view : null;
}

/**
 * The view of an instance joined with its deployed descriptor (`GET
 * /v1/marketplace/instances/{id}/descriptor`), and that descriptor. When the descriptor cannot be
 * read, the view is the marketplace's alone and its `note` says why.
 *
 * @example
 * const { view, deployed } = await readDeployedSystem(marketplace, instance);
 */
export async function readDeployedSystem(
  marketplace: MarketplaceClient,
  instance: MarketplaceInstance,
  signal?: AbortSignal,
): Promise<{ view: SystemView; deployed: DeployedDescriptor | null }> {
  let deployed: DeployedDescriptor | null = null;
  let note: string | undefined;
  try {
    deployed = await marketplace.getDeployedDescriptor(instance.systemId, instance.environment, {
      signal,
    });
    // Undeployed between the two reads.
    if (!deployed) note = 'The system was undeployed while it was read.';
  } catch (error) {
    const failure = describeFailure(error);
    if (failure === undefined) throw error;
    note = `The data contracts could not be read: ${failure}. Only the marketplace view is shown.`;
  }
  return { view: buildView(instance, deployed?.descriptor, note), deployed };
}

function buildView(
  instance: MarketplaceInstance,
  descriptor: Record<string, unknown> | undefined,
  note: string | undefined,
): SystemView {
  const described = new Map<string, Record<string, unknown>>();
  const components = descriptor?.components;
  if (Array.isArray(components)) {
    for (const component of components) {
      if (isRecord(component) && typeof component.id === 'string') {
        described.set(component.id, component);
      }
    }
  }
  const outputPorts: ComponentView[] = [];
  const otherComponents: ComponentView[] = [];
  for (const component of instance.components) {
    const source = described.get(component.id);
    const kind = component.kind ?? text(source?.kind);
    const description = text(source?.description);
    const view: ComponentView = {
      id: component.id,
      ...(component.name === undefined ? {} : { name: component.name }),
      ...(kind === undefined ? {} : { kind }),
      ...(description === undefined ? {} : { description }),
      isDataContract: component.dataContract,
      ...(component.compliance ? { compliance: component.compliance } : {}),
      ...(isRecord(source?.dataContract) ? { dataContract: source.dataContract } : {}),
    };
    if (kind === 'outputport' || component.dataContract) outputPorts.push(view);
    else otherComponents.push(view);
  }
  const domain = text(descriptor?.domain);
  const description = text(descriptor?.description);
  return {
    systemId: instance.systemId,
    name: instance.name,
    kind: instance.kind,
    environment: instance.environment,
    ...(instance.version === undefined ? {} : { version: instance.version }),
    deployedAt: instance.deployedAt,
    ...(domain === undefined ? {} : { domain }),
    ...(description === undefined ? {} : { description }),
    outputPorts,
    otherComponents,
    descriptorRead: descriptor !== undefined,
    ...(note === undefined ? {} : { note }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

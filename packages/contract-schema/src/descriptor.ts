import { z } from 'zod';

/**
 * `info.privateInfo.__dataContractGuardian` of a guardian component: the passive policy id the
 * provisioning coordinator hands to the guardian.
 *
 * @example
 * GuardianPrivateInfoSchema.parse({ policyId: 'policy-42' });
 */
export const GuardianPrivateInfoSchema = z
  .looseObject({ policyId: z.string().min(1).optional() })
  .meta({ title: 'GuardianPrivateInfo' });
/** A value that GuardianPrivateInfoSchema accepts (its parsed output). */
export type GuardianPrivateInfo = z.infer<typeof GuardianPrivateInfoSchema>;

/**
 * `info` of a deployed component as it appears inside a descriptor.
 *
 * @example
 * DescriptorInfoSchema.parse({ privateInfo: { __dataContractGuardian: { policyId: 'p1' } } });
 */
export const DescriptorInfoSchema = z
  .looseObject({
    publicInfo: z.record(z.string(), z.unknown()).optional(),
    privateInfo: z
      .looseObject({ __dataContractGuardian: GuardianPrivateInfoSchema.optional() })
      .optional(),
  })
  .meta({ title: 'DescriptorInfo' });
/** A value that DescriptorInfoSchema accepts (its parsed output). */
export type DescriptorInfo = z.infer<typeof DescriptorInfoSchema>;

/**
 * One `guards[]` entry of a guardian component: the data contract it monitors.
 *
 * @example
 * GuardEntrySchema.parse({ dataContractId: 'urn:dmb:cmp:finance:invoices:0:orders-port' });
 */
export const GuardEntrySchema = z
  .looseObject({
    dataContractId: z.string().min(1),
    monitoringResultScheduling: z.unknown().optional(),
  })
  .meta({ title: 'GuardEntry' });
/** A value that GuardEntrySchema accepts (its parsed output). */
export type GuardEntry = z.infer<typeof GuardEntrySchema>;

/**
 * `__dataContractGuardianSpec`: marks a component as a guardian and lists what it guards.
 *
 * @example
 * DataContractGuardianSpecSchema.parse({ guards: [{ dataContractId: 'urn:dmb:cmp:a:b:0:port' }] });
 */
export const DataContractGuardianSpecSchema = z
  .looseObject({ guards: z.array(GuardEntrySchema) })
  .meta({ title: 'DataContractGuardianSpec' });
/** A value that DataContractGuardianSpecSchema accepts (its parsed output). */
export type DataContractGuardianSpec = z.infer<typeof DataContractGuardianSpecSchema>;

/** A component (or subcomponent) of a system descriptor; unknown fields are kept. */
export interface ComponentDescriptor {
  id: string;
  name?: string | undefined;
  kind?: string | undefined;
  consumable?: boolean | undefined;
  __dataContractEnabled?: boolean | undefined;
  dataContract?: Record<string, unknown> | undefined;
  components?: ComponentDescriptor[] | undefined;
  info?: DescriptorInfo | undefined;
  __dataContractGuardianSpec?: DataContractGuardianSpec | undefined;
  infrastructureTemplateId?: string | undefined;
  [field: string]: unknown;
}

/**
 * A component descriptor (A2): the fields the guardian mechanism reads, every other field
 * preserved on parse. `components` nests subcomponents of the same shape.
 *
 * @example
 * ComponentDescriptorSchema.parse({
 *   id: 'urn:dmb:cmp:finance:invoices:0:orders-port',
 *   kind: 'outputport',
 *   consumable: true,
 *   __dataContractEnabled: true,
 *   dataContract: { schema: [{ name: 'id', dataType: 'string' }] },
 * });
 */
export const ComponentDescriptorSchema: z.ZodType<ComponentDescriptor> = z
  .looseObject({
    id: z.string().min(1),
    name: z.string().optional(),
    kind: z.string().optional(),
    consumable: z.boolean().optional(),
    __dataContractEnabled: z.boolean().optional(),
    dataContract: z.record(z.string(), z.unknown()).optional(),
    get components() {
      return z.array(ComponentDescriptorSchema).optional();
    },
    info: DescriptorInfoSchema.optional(),
    __dataContractGuardianSpec: DataContractGuardianSpecSchema.optional(),
    infrastructureTemplateId: z.string().optional(),
  })
  .meta({ id: 'ComponentDescriptor', title: 'ComponentDescriptor' });

/**
 * A system (data product) descriptor (A2). `kind` is the system's resource type, which selects
 * the passive policy of a guardian. Unknown fields are preserved.
 *
 * @example
 * SystemDescriptorSchema.parse({
 *   id: 'urn:dmb:dp:finance:invoices:0',
 *   kind: 'dataproduct',
 *   components: [{ id: 'urn:dmb:cmp:finance:invoices:0:orders-port', __dataContractEnabled: true }],
 * });
 */
export const SystemDescriptorSchema = z
  .looseObject({
    id: z.string().min(1),
    name: z.string().optional(),
    kind: z.string().min(1),
    domain: z.string().optional(),
    version: z.string().optional(),
    environment: z.string().optional(),
    components: z.array(ComponentDescriptorSchema).optional(),
    info: DescriptorInfoSchema.optional(),
  })
  .meta({ title: 'SystemDescriptor' });
/** A value that SystemDescriptorSchema accepts (its parsed output). */
export type SystemDescriptor = z.infer<typeof SystemDescriptorSchema>;

/**
 * The YAML `descriptor` of a `COMPONENT_DESCRIPTOR` provisioning request: the whole system plus
 * the id of the component to provision.
 *
 * @example
 * ComponentProvisioningDescriptorSchema.parse({
 *   dataProduct: { id: 'urn:dmb:dp:finance:invoices:0', kind: 'dataproduct', components: [] },
 *   componentIdToProvision: 'urn:dmb:cmp:finance:invoices:0:guardian',
 * });
 */
export const ComponentProvisioningDescriptorSchema = z
  .looseObject({
    dataProduct: SystemDescriptorSchema,
    componentIdToProvision: z.string().min(1),
  })
  .meta({ title: 'ComponentProvisioningDescriptor' });
/** A value that ComponentProvisioningDescriptorSchema accepts (its parsed output). */
export type ComponentProvisioningDescriptor = z.infer<typeof ComponentProvisioningDescriptorSchema>;

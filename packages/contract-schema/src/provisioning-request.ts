import { z } from 'zod';

/**
 * What the YAML `descriptor` of a provisioning request holds.
 *
 * @example
 * DescriptorKindSchema.parse('COMPONENT_DESCRIPTOR');
 */
export const DescriptorKindSchema = z
  .enum(['DATAPRODUCT_DESCRIPTOR', 'COMPONENT_DESCRIPTOR', 'DATAPRODUCT_DESCRIPTOR_WITH_RESULTS'])
  .meta({ title: 'DescriptorKind' });
/** A value that DescriptorKindSchema accepts (its parsed output). */
export type DescriptorKind = z.infer<typeof DescriptorKindSchema>;

/**
 * Body of `POST /v1/provision`, `/v1/unprovision` and `/v1/validate` of a tech adapter. The
 * `descriptor` is a YAML string: see `parseDescriptorYaml`.
 *
 * @example
 * ProvisioningRequestSchema.parse({
 *   descriptorKind: 'COMPONENT_DESCRIPTOR',
 *   descriptor: 'dataProduct: { id: urn:dmb:dp:a:b:0, kind: dataproduct }\ncomponentIdToProvision: urn:dmb:cmp:a:b:0:g\n',
 *   removeData: false,
 * });
 */
export const ProvisioningRequestSchema = z
  .looseObject({
    descriptorKind: DescriptorKindSchema,
    descriptor: z.string(),
    removeData: z.boolean(),
    latestEnrichedDescriptor: z.string().optional(),
  })
  .meta({ title: 'ProvisioningRequest' });
/** A value that ProvisioningRequestSchema accepts (its parsed output). */
export type ProvisioningRequest = z.infer<typeof ProvisioningRequestSchema>;

/**
 * `provisionInfo` of an ACL update: the request that provisioned the component and its result.
 *
 * @example
 * ProvisionInfoSchema.parse({ request: '{"descriptorKind":"COMPONENT_DESCRIPTOR"}', result: 'ok' });
 */
export const ProvisionInfoSchema = z
  .looseObject({ request: z.string(), result: z.string() })
  .meta({ title: 'ProvisionInfo' });
/** A value that ProvisionInfoSchema accepts (its parsed output). */
export type ProvisionInfo = z.infer<typeof ProvisionInfoSchema>;

/**
 * Body of `POST /v1/updateacl`.
 *
 * @example
 * UpdateAclRequestSchema.parse({ refs: ['user:alice'], provisionInfo: { request: '{}', result: 'ok' } });
 */
export const UpdateAclRequestSchema = z
  .looseObject({ refs: z.array(z.string()), provisionInfo: ProvisionInfoSchema })
  .meta({ title: 'UpdateAclRequest' });
/** A value that UpdateAclRequestSchema accepts (its parsed output). */
export type UpdateAclRequest = z.infer<typeof UpdateAclRequestSchema>;

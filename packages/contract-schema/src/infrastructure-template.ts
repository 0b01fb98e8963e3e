import { z } from 'zod';
import { DataContractGuardianSchema } from './guardian-policy';

/**
 * `properties` of an infrastructure template: `dataContractGuardian` makes it a guardian
 * template; every other property is preserved.
 *
 * @example
 * TemplatePropertiesSchema.parse({ dataContractGuardian: { policies: [] }, team: 'platform' });
 */
export const TemplatePropertiesSchema = z
  .looseObject({
    dataContractGuardian: DataContractGuardianSchema.optional(),
  })
  .meta({ title: 'TemplateProperties' });
/** A value that TemplatePropertiesSchema accepts (its parsed output). */
export type TemplateProperties = z.infer<typeof TemplatePropertiesSchema>;

/**
 * Registration body of an infrastructure template (`id` is a `urn:dmb:itm:…` URN).
 *
 * @example
 * InfrastructureTemplateSchema.parse({
 *   id: 'urn:dmb:itm:ge-guardian:1',
 *   name: 'Great Expectations guardian',
 *   url: 'http://127.0.0.1:8093/datamesh.specificprovisioner',
 *   properties: {
 *     dataContractGuardian: {
 *       policies: [{ resourceType: 'dataproduct', spec: { name: 'DC', description: 'quality' } }],
 *     },
 *   },
 * });
 */
export const InfrastructureTemplateSchema = z
  .looseObject({
    id: z.string().min(1),
    name: z.string().min(1),
    description: z.string().optional(),
    version: z.string().optional(),
    url: z.string().min(1),
    environment: z.string().optional(),
    properties: TemplatePropertiesSchema.optional(),
  })
  .meta({ title: 'InfrastructureTemplate' });
/** A value that InfrastructureTemplateSchema accepts (its parsed output). */
export type InfrastructureTemplate = z.infer<typeof InfrastructureTemplateSchema>;

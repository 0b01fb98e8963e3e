import { z } from 'zod';

/**
 * `info` of a tech adapter response: `publicInfo` is shown in the marketplace, `privateInfo` is
 * stored in the deployed descriptor only.
 *
 * @example
 * ProvisioningInfoSchema.parse({
 *   publicInfo: {},
 *   privateInfo: { __dataContractGuardian: { policyId: 'policy-42' } },
 * });
 */
export const ProvisioningInfoSchema = z
  .looseObject({
    publicInfo: z.record(z.string(), z.unknown()),
    privateInfo: z.record(z.string(), z.unknown()),
  })
  .meta({ title: 'ProvisioningInfo' });
/** A value that ProvisioningInfoSchema accepts (its parsed output). */
export type ProvisioningInfo = z.infer<typeof ProvisioningInfoSchema>;

/**
 * One log line of a provisioning operation.
 *
 * @example
 * ProvisioningLogSchema.parse({ timestamp: '2026-01-01T00:00:00Z', level: 'INFO', message: 'done' });
 */
export const ProvisioningLogSchema = z
  .looseObject({
    timestamp: z.iso.datetime({ offset: true }),
    level: z.enum(['DEBUG', 'INFO', 'WARNING', 'ERROR']),
    message: z.string(),
    phase: z.string().optional(),
  })
  .meta({ title: 'ProvisioningLog' });
/** A value that ProvisioningLogSchema accepts (its parsed output). */
export type ProvisioningLog = z.infer<typeof ProvisioningLogSchema>;

/**
 * Status of a (possibly asynchronous) provisioning operation. `info` may be `null`: a guardian
 * that has nothing to add answers `null` so that the input `info` is kept.
 *
 * @example
 * ProvisioningStatusSchema.parse({ status: 'COMPLETED', result: 'deployed', info: null });
 */
export const ProvisioningStatusSchema = z
  .looseObject({
    status: z.enum(['RUNNING', 'COMPLETED', 'FAILED']),
    result: z.string(),
    info: ProvisioningInfoSchema.nullable().optional(),
    logs: z.array(ProvisioningLogSchema).optional(),
  })
  .meta({ title: 'ProvisioningStatus' });
/** A value that ProvisioningStatusSchema accepts (its parsed output). */
export type ProvisioningStatus = z.infer<typeof ProvisioningStatusSchema>;

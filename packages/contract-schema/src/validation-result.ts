import { z } from 'zod';

/**
 * Answer of `POST /v1/validate` of a tech adapter.
 *
 * @example
 * ValidationResultSchema.parse({ valid: false, error: { errors: ['missing passive policy'] } });
 */
export const ValidationResultSchema = z
  .looseObject({
    valid: z.boolean(),
    error: z.looseObject({ errors: z.array(z.string()) }).optional(),
  })
  .meta({ title: 'ValidationResult' });
/** A value that ValidationResultSchema accepts (its parsed output). */
export type ValidationResult = z.infer<typeof ValidationResultSchema>;

/**
 * Status of an asynchronous validation (`GET /v2/validate/{token}/status`).
 *
 * @example
 * ValidationStatusSchema.parse({ status: 'COMPLETED', info: { publicInfo: { valid: true } } });
 */
export const ValidationStatusSchema = z
  .looseObject({
    status: z.enum(['RUNNING', 'COMPLETED', 'FAILED']),
    info: z.looseObject({ publicInfo: ValidationResultSchema }).optional(),
  })
  .meta({ title: 'ValidationStatus' });
/** A value that ValidationStatusSchema accepts (its parsed output). */
export type ValidationStatus = z.infer<typeof ValidationStatusSchema>;

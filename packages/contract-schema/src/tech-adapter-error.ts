import { z } from 'zod';

/**
 * `moreInfo` of a tech adapter error: the problems found and what the user can do.
 *
 * @example
 * ErrorMoreInfoSchema.parse({ problems: ['no policy id'], solutions: ['register the template'] });
 */
export const ErrorMoreInfoSchema = z
  .looseObject({ problems: z.array(z.string()), solutions: z.array(z.string()) })
  .meta({ title: 'ErrorMoreInfo' });
/** A value that ErrorMoreInfoSchema accepts (its parsed output). */
export type ErrorMoreInfo = z.infer<typeof ErrorMoreInfoSchema>;

// What both error answers may add for the user: a message, the input at fault and what to do.
const explanationFields = {
  userMessage: z.string().optional(),
  input: z.string().optional(),
  inputErrorField: z.string().optional(),
  moreInfo: ErrorMoreInfoSchema.optional(),
};

/**
 * 400 answer of a tech adapter (`RequestValidationError`).
 *
 * @example
 * TechAdapterErrorSchema.parse({ errors: ['missing passive policy'], userMessage: 'Missing policy' });
 */
export const TechAdapterErrorSchema = z
  .looseObject({
    errors: z.array(z.string()),
    ...explanationFields,
  })
  .meta({ title: 'TechAdapterError' });
/** A value that TechAdapterErrorSchema accepts (its parsed output). */
export type TechAdapterError = z.infer<typeof TechAdapterErrorSchema>;

/**
 * 500 answer of a tech adapter (`SystemError`).
 *
 * @example
 * TechAdapterSystemErrorSchema.parse({ error: 'database unreachable' });
 */
export const TechAdapterSystemErrorSchema = z
  .looseObject({
    error: z.string(),
    ...explanationFields,
  })
  .meta({ title: 'TechAdapterSystemError' });
/** A value that TechAdapterSystemErrorSchema accepts (its parsed output). */
export type TechAdapterSystemError = z.infer<typeof TechAdapterSystemErrorSchema>;

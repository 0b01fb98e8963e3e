import { z } from 'zod';

/**
 * An integer setting of a configuration schema: `min` to `max`, `fallback` when the key is absent.
 *
 * @example
 * const Schema = z.strictObject({ timeoutMs: integerSetting(1, 600_000, 10_000) });
 */
export function integerSetting(min: number, max: number, fallback: number) {
  return z.number().int().min(min).max(max).default(fallback);
}

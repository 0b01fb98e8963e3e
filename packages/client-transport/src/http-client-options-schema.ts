import * as z from 'zod/mini';

/**
 * The checks of {@link HttpClientOptions}, the same in every dcg client: an absolute http(s) base
 * URL without query or fragment (trailing slashes dropped), a non-empty key, and bounded timeout,
 * retries and answer size. Each client passes its own largest answer and adds its own options.
 *
 * @example
 * const OptionsSchema = z.object(httpClientOptionsShape(32 * 1024 * 1024));
 */
export function httpClientOptionsShape(defaultMaxResponseBytes: number) {
  return {
    baseUrl: z.pipe(
      z.pipe(
        z.union([z.string(), z.instanceof(URL)]),
        z.transform((value) => String(value).replace(/\/+$/, '')),
      ),
      z.string().check(
        z.refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
          message: 'must be an absolute http(s) URL',
        }),
        z.refine((value) => !/[?#]/.test(value), {
          message: 'must not have a query or a fragment',
        }),
      ),
    ),
    apiKey: z.optional(z.string().check(z.minLength(1, 'must not be empty'))),
    timeoutMs: z._default(z.int().check(z.gte(1), z.lte(2_147_483_647)), 10_000),
    retries: z._default(z.int().check(z.gte(0), z.lte(10)), 2),
    maxResponseBytes: z._default(z.int().check(z.gte(1)), defaultMaxResponseBytes),
    fetch: z.optional(z.custom<typeof globalThis.fetch>((value) => typeof value === 'function')),
  };
}

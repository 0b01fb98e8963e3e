import { CodedError, hasBrand } from '@dcg/coded-error';

const MARKER = Symbol.for('dcg.marketplace-search.error');

/**
 * Stable codes of {@link MarketplaceSearchError}: callers branch on these, never on messages.
 *
 * @example
 * if (error.code === 'provider_rate_limited') retryLater();
 */
export type MarketplaceSearchErrorCode =
  | 'invalid_config'
  | 'invalid_query'
  | 'provider_rate_limited'
  | 'provider_unavailable'
  | 'provider_rejected'
  | 'provider_timeout'
  | 'provider_bad_response'
  | 'model_mismatch'
  | 'store_failed'
  | 'job_not_found'
  | 'search_unavailable';

/**
 * The one error base of `@dcg/marketplace-search`. Recognised across copies of the package with
 * {@link MarketplaceSearchError.isInstance}. Messages never contain an API key.
 *
 * @example
 * throw new MarketplaceSearchError('invalid_query', 'q must not be empty', { path: ['q'] });
 */
export class MarketplaceSearchError extends CodedError<MarketplaceSearchErrorCode> {
  /** Where the bad input was (query parameter, configuration key). */
  readonly path: ReadonlyArray<string | number>;
  /** Seconds after which a retry may succeed (rate limits, outages). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: MarketplaceSearchErrorCode,
    message: string,
    options: {
      cause?: unknown;
      path?: ReadonlyArray<string | number>;
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(MARKER, code, message, options);
    this.name = 'MarketplaceSearchError';
    this.path = options.path ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** True for an error of this package, from any copy of it. */
  static isInstance = hasBrand<MarketplaceSearchError>(MARKER);
}

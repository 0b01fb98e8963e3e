import { type ClientErrorCode, problemMessage } from '@dcg/client-transport';
import { CodedErrorWithIssues, hasBrand } from '@dcg/coded-error';

const marker = Symbol.for('dcg.marketplace-client.error');

/** What went wrong, as a stable string a caller can switch on. */
export type MarketplaceClientErrorCode = ClientErrorCode;

/** An RFC 9457 problem document as governance-api answers it (unknown members kept). */
export interface ProblemDetails {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly [member: string]: unknown;
}

/** One thing wrong with an answer or an argument: a stable `code` and a path array. */
export interface MarketplaceIssue {
  readonly code: string;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/**
 * Base of every error `@dcg/marketplace-client` throws: a `code`, a message for people and the
 * `cause`. Recognised across copies of the package with {@link MarketplaceClientError.isInstance}.
 *
 * @example
 * try { await client.getInstance('urn:dmb:dp:x:y:0'); }
 * catch (error) { if (MarketplaceClientError.isInstance(error) && error.code === 'timeout') retryLater(); }
 */
export class MarketplaceClientError extends CodedErrorWithIssues<
  MarketplaceClientErrorCode,
  MarketplaceIssue
> {
  constructor(
    code: MarketplaceClientErrorCode,
    message: string,
    options?: { cause?: unknown; issues?: readonly MarketplaceIssue[] },
  ) {
    super(marker, code, message, options);
    this.name = 'MarketplaceClientError';
  }

  /** True for any error of this package, also one thrown by another copy of it. */
  static isInstance = hasBrand<MarketplaceClientError>(marker);
}

/**
 * governance-api answered with an error status; `problem` holds its problem details (or details
 * made from the status when the body was not a problem document).
 *
 * @example
 * catch (error) { if (error instanceof MarketplaceProblemError && error.status === 404) return null; }
 */
export class MarketplaceProblemError extends MarketplaceClientError {
  readonly status: number;
  readonly problem: ProblemDetails;

  constructor(status: number, problem: ProblemDetails, options?: { cause?: unknown }) {
    super('problem', problemMessage(status, problem), options);
    this.name = 'MarketplaceProblemError';
    this.status = status;
    this.problem = problem;
  }
}

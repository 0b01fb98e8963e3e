import type { ClientErrorCode } from './client-error-code';

/**
 * What a published client's base error shares: a stable `code`, a message for people, the
 * `cause`, and a package marker (a `Symbol.for` key) by which the client's `isInstance` recognises
 * an error thrown by another copy of the same client. Each client subclasses it under its own name.
 *
 * @example
 * class KgClientError extends HttpClientError {
 *   constructor(code: ClientErrorCode, message: string, options?: { cause?: unknown }) {
 *     super(marker, code, message, options);
 *   }
 * }
 */
export class HttpClientError extends Error {
  // Declared, not a class field: the same own property, a few bytes less in a browser bundle.
  declare readonly code: ClientErrorCode;

  constructor(
    marker: symbol,
    code: ClientErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    // Not enumerable: Node prints an uncaught error with its enumerable members.
    Object.defineProperty(this, marker, { value: true });
  }
}

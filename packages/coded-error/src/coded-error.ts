/**
 * The base of every dcg error class: a stable `code` to branch on, a message for people, the
 * `cause` when there is one, and a brand (a `Symbol.for` key of its package) by which the class's
 * `isInstance` recognises an error thrown by another installed copy of the package, where
 * `instanceof` fails. Each package subclasses it once, under its own name and brand.
 *
 * @example
 * const BRAND = Symbol.for('dcg.storage.error');
 * class StorageError extends CodedError<'open_failed' | 'migration_failed'> {
 *   constructor(code: 'open_failed' | 'migration_failed', message: string, options?: { cause?: unknown }) {
 *     super(BRAND, code, message, options);
 *     this.name = 'StorageError';
 *   }
 *   static isInstance = hasBrand<StorageError>(BRAND);
 * }
 */
export class CodedError<Code extends string = string> extends Error {
  // Declared, not a class field: the same own property, a few bytes less in a browser bundle.
  declare readonly code: Code;

  constructor(brand: symbol, code: Code, message: string, options?: { cause?: unknown }) {
    // An absent cause stays absent (no own `cause: undefined`).
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    // Not enumerable: Node prints an uncaught error with its enumerable members.
    Object.defineProperty(this, brand, { value: true });
  }
}

/**
 * The type guard of the errors that carry `brand`, whichever copy of their package made them: a
 * class's `static isInstance`.
 *
 * @example
 * static isInstance = hasBrand<StorageError>(BRAND);
 */
export function hasBrand<T>(brand: symbol): (value: unknown) => value is T {
  return (value): value is T => typeof value === 'object' && value !== null && brand in value;
}

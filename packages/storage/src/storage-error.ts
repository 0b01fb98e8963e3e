import { CodedError, hasBrand } from '@dcg/coded-error';

const MARKER = Symbol.for('dcg.storage.error');

/** What went wrong, for callers that branch: a bad option, or a migration that could not run. */
export type StorageErrorCode = 'invalid_config' | 'migration_failed' | 'open_failed';

/**
 * The one error of `@dcg/storage`, recognisable across copies of the package.
 *
 * @example
 * try { await migrate(handle, migrations); } catch (error) {
 *   if (StorageError.isInstance(error) && error.code === 'migration_failed') process.exit(3);
 * }
 */
export class StorageError extends CodedError<StorageErrorCode> {
  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(MARKER, code, message, options);
    this.name = 'StorageError';
  }

  static isInstance = hasBrand<StorageError>(MARKER);
}

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
export class StorageError extends Error {
  readonly [MARKER] = true;
  override readonly name = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static isInstance(value: unknown): value is StorageError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }
}

import { migrate, type StorageHandle } from '@dcg/storage';
import { sql } from 'kysely';
import { GovernanceError } from '../errors';
import type { GovernanceStore } from '../repositories';
import { governanceMigrations } from './governance-migrations';
import type { GovernanceTables } from './governance-tables';
import { instanceRepository } from './instance-repository';
import { planRepository } from './plan-repository';
import { policyRepository } from './policy-repository';
import { resultRepository } from './result-repository';
import { storeContext } from './store-context';
import { templateRepository } from './template-repository';

/**
 * The governance store over an open handle of either dialect: migrates it, then one repository
 * per aggregate. Closing the store commits what is queued, then closes the handle. When the
 * migration fails the handle is closed and `storage_failure` thrown, its message after `failure`.
 *
 * @example
 * const store = await governanceStore(await openSqlite(file), 'Cannot open the SQLite database x');
 */
export async function governanceStore(
  handle: StorageHandle<GovernanceTables>,
  failure: string,
): Promise<GovernanceStore> {
  try {
    await migrate(handle, governanceMigrations(handle));
  } catch (error) {
    await handle.close();
    throw new GovernanceError('storage_failure', `${failure}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let closed = false;
  let closing: Promise<void> | undefined;
  const ctx = storeContext(handle, () => closed);
  const { drain, ...results } = resultRepository(ctx);
  return {
    kind: handle.dialect,
    ...templateRepository(ctx),
    ...policyRepository(ctx),
    ...planRepository(ctx),
    ...instanceRepository(ctx),
    ...results,
    async ping() {
      await ctx.run('answer', () => sql`SELECT 1`.execute(handle.db));
    },
    close() {
      closing ??= (async () => {
        // Commit what is queued or in flight before closing: nothing accepted may be dropped.
        await drain();
        closed = true;
        await handle.close();
      })();
      return closing;
    },
  };
}

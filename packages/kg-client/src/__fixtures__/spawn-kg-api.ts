import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnApp } from '@dcg/testing-process';

/** apps/kg-api/src/main.ts of this workspace. */
export const kgApiMain = fileURLToPath(
  new URL('../../../../apps/kg-api/src/main.ts', import.meta.url),
);

/** A kg-api process started by {@link spawnKgApi}. */
export interface SpawnedKgApi {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts the real kg-api as its own process, as an operator would (testing-process `spawnApp`:
 * `src/main.ts` with PORT=0, a temp DCG_DATA_DIR and a temp DCG_CONFIG), and resolves with the URL
 * it prints in its "listening" line.
 */
export async function spawnKgApi(
  config: unknown,
  env: Record<string, string> = {},
): Promise<SpawnedKgApi> {
  const app = await spawnApp('kg-api', { config, env: { LOG_LEVEL: 'info', ...env } });
  return { url: app.url, stop: () => app.close() };
}

/** True when the kg-api app is present in this checkout. */
export function kgApiPresent(): boolean {
  return existsSync(kgApiMain);
}

import { fileURLToPath } from 'node:url';
import { type SpawnedService, spawnService } from '@dcg/testing-process';

const appDir = fileURLToPath(new URL('../..', import.meta.url));

/** A governance-api process started from `src/main.ts`, as `pnpm start` runs it. */
export type SpawnedApp = SpawnedService;

/**
 * Spawns governance-api with `env` (on 127.0.0.1, a free port) and resolves once it listens.
 *
 * @example
 * const app = await spawnApp({ DCG_CONFIG: configFile, DCG_DATA_DIR: dir });
 * app.child.kill('SIGKILL');
 */
export function spawnApp(env: Record<string, string>): Promise<SpawnedApp> {
  return spawnService({ appDir, env: { LOG_LEVEL: 'info', ...env }, startTimeoutMs: 30_000 });
}

import { fileURLToPath } from 'node:url';
import { runToExit, type SpawnedService, spawnService } from '@dcg/testing-process';

const appDir = fileURLToPath(new URL('../..', import.meta.url));

/** Starts kg-api's `src/main.ts` as its own process and resolves once it listens. */
export function spawnKgApi(env: Record<string, string>): Promise<SpawnedService> {
  return spawnService({ appDir, env: { LOG_LEVEL: 'info', ...env }, startTimeoutMs: 30_000 });
}

/** Runs kg-api's `src/main.ts` to its end (a refused start) and resolves with code and output. */
export function runKgApiToExit(env: Record<string, string>) {
  return runToExit({ appDir, env: { LOG_LEVEL: 'info', ...env } });
}

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnService } from '@dcg/testing-process';

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
 * Starts the real kg-api as its own process, as an operator would (`tsx --conditions=@dcg/source
 * src/main.ts` with PORT=0, a temp DCG_DATA_DIR and a temp DCG_CONFIG), and resolves with the URL
 * it prints in its "listening" line.
 */
export async function spawnKgApi(
  config: unknown,
  env: Record<string, string> = {},
): Promise<SpawnedKgApi> {
  const dir = await mkdtemp(join(tmpdir(), 'dcg-kg-client-kg-api-'));
  const configPath = join(dir, 'config.json');
  await writeFile(configPath, JSON.stringify(config));
  const app = await spawnService({
    appDir: fileURLToPath(new URL('../../../../apps/kg-api/', import.meta.url)),
    env: { DCG_DATA_DIR: join(dir, 'data'), DCG_CONFIG: configPath, LOG_LEVEL: 'info', ...env },
  }).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: app.url,
    stop: async () => {
      await app.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** True when the kg-api app is present in this checkout. */
export function kgApiPresent(): boolean {
  return existsSync(kgApiMain);
}

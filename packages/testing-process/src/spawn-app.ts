import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SpawnedService, spawnService } from './spawn-service';

/** The apps of this workspace that serve HTTP. */
export type WorkspaceApp = 'governance-api' | 'kg-api' | 'mcp-server';

/** How to start an app for a test. */
export interface AppOptions {
  /** The configuration file's content (written as JSON and named by `DCG_CONFIG`). */
  config?: unknown;
  /** Loads the app's demo data (`DCG_DEMO=1`). */
  demo?: boolean;
  /** More environment variables (`DATABASE_URL`, `LOG_LEVEL`…). */
  env?: Record<string, string>;
}

/** A workspace app running as its own process, with a temporary folder of its own. */
export interface SpawnedApp {
  readonly url: string;
  /** The temporary folder: the configuration file, and the app's data in `dir/data`. */
  readonly dir: string;
  readonly service: SpawnedService;
  /** Stops the process and removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts a workspace app (`apps/<app>/src/main.ts`) as an operator would, on a free loopback
 * port with its data in a new temporary folder: a package's tests reach an app this way, never
 * by importing it (packages stand below apps).
 *
 * @example
 * const governance = await spawnApp('governance-api', { demo: true, config: { auth: { apiKeys } } });
 * await fetch(`${governance.url}/health`);
 * await governance.close();
 */
export async function spawnApp(app: WorkspaceApp, options: AppOptions = {}): Promise<SpawnedApp> {
  const dir = await mkdtemp(join(tmpdir(), `dcg-${app}-`));
  const env: Record<string, string> = {
    DCG_DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'warn',
    ...(options.demo ? { DCG_DEMO: '1' } : {}),
    ...options.env,
  };
  try {
    if (options.config !== undefined) {
      env.DCG_CONFIG = join(dir, 'config.json');
      await writeFile(env.DCG_CONFIG, JSON.stringify(options.config));
    }
    const service = await spawnService({
      appDir: fileURLToPath(new URL(`../../../apps/${app}/`, import.meta.url)),
      env,
    });
    return {
      url: service.url,
      dir,
      service,
      close: async () => {
        await service.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

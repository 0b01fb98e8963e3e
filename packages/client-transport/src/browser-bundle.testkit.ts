import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** What a browser app pays for a client entry: gzipped bytes, minified bytes per package. */
export interface BrowserBundle {
  gzipped: number;
  byPackage: Record<string, number>;
  /** The bundled input files (to check what must not be in it, such as zod's locales). */
  files: string[];
}

/**
 * Bundles `entry` for the browser, minified and with everything it imports (ky, zod/mini, the
 * wire schemas), as a bundler would ship it, and measures it. Bytes of the workspace's own
 * sources count under `ownName`.
 *
 * @example
 * const { gzipped } = await measureBrowserBundle(fileURLToPath(new URL('./index.ts', import.meta.url)), '@dcg/kg-client');
 */
export async function measureBrowserBundle(entry: string, ownName: string): Promise<BrowserBundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    conditions: ['@dcg/source'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  const inputs = Object.values(result.metafile.outputs)[0]?.inputs ?? {};
  const byPackage: Record<string, number> = {};
  for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
    const name = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? ownName;
    byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
  }
  return { gzipped: gzipSync(code).byteLength, byPackage, files: Object.keys(inputs) };
}

import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// What a browser app pays for the client: the root entry bundled, minified and gzipped with
// everything it imports (ky, zod/mini, the wire schemas), as a bundler would ship it.
const limitBytes = 20_000;

describe('the browser bundle of @dcg/marketplace-client', () => {
  it(`is under ${limitBytes} bytes gzipped`, async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
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
    const gzipped = gzipSync(code).byteLength;
    const inputs = Object.values(result.metafile.outputs)[0]?.inputs ?? {};
    const byPackage: Record<string, number> = {};
    for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
      const name =
        /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? '@dcg/marketplace-client';
      byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
    }
    console.log(`marketplace-client browser bundle: ${gzipped} bytes gzipped`, byPackage);
    expect(gzipped, `minified bytes by package: ${JSON.stringify(byPackage)}`).toBeLessThan(
      limitBytes,
    );
    // No locale of zod is bundled: zod/mini, imported as a namespace, tree-shakes them away.
    expect(Object.keys(inputs).filter((file) => file.includes('/locales/'))).toEqual([]);
  });
});

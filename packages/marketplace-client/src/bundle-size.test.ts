import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { measureBrowserBundle } from '../../client-transport/src/browser-bundle.testkit';

// What a browser app pays for the client: the root entry bundled, minified and gzipped with
// everything it imports (ky, zod/mini, the wire schemas), as a bundler would ship it.
const limitBytes = 20_000;

describe('the browser bundle of @dcg/marketplace-client', () => {
  it(`is under ${limitBytes} bytes gzipped`, async () => {
    const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
    const { gzipped, byPackage, files } = await measureBrowserBundle(
      entry,
      '@dcg/marketplace-client',
    );
    console.log(`marketplace-client browser bundle: ${gzipped} bytes gzipped`, byPackage);
    expect(gzipped, `minified bytes by package: ${JSON.stringify(byPackage)}`).toBeLessThan(
      limitBytes,
    );
    // No locale of zod is bundled: zod/mini, imported as a namespace, tree-shakes them away.
    expect(files.filter((file) => file.includes('/locales/'))).toEqual([]);
  });
});

import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/node/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The JSON-LD worker is plain JavaScript loaded by URL next to dist/node/index.js.
  onSuccess: 'cp src/node/json-ld-worker-thread.js dist/node/json-ld-worker-thread.js',
});

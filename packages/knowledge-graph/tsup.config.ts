import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/node/index.ts', 'src/node/json-ld-worker-thread.js'],
  format: ['esm'],
  // The worker thread is plain JavaScript: types only for the TypeScript entries.
  dts: { entry: ['src/index.ts', 'src/node/index.ts'] },
  clean: true,
  sourcemap: true,
  target: 'node20',
});

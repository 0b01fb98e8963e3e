import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/node/index.ts', 'src/node/json-ld-worker-thread.js'],
  format: ['esm'],
  // Declarations for the TypeScript entries only: the worker thread is plain JavaScript.
  dts: { entry: ['src/index.ts', 'src/node/index.ts'] },
  clean: true,
  sourcemap: true,
  target: 'node20',
});

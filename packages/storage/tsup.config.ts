import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The checkpointer's worker is loaded by URL beside index.js, not imported: copy it.
  onSuccess: 'cp src/wal-checkpoint-worker.mjs dist/',
});

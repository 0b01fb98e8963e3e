import { defineConfig } from 'tsup';

export default defineConfig({
  // pg-transaction on its own: code that speaks to pg alone (knowledge-graph, bundled into the
  // published kg-cli) imports it without loading better-sqlite3.
  entry: ['src/index.ts', 'src/pg-transaction.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // The checkpointer's worker is loaded by URL beside index.js, not imported: copy it.
  onSuccess: 'cp src/wal-checkpoint-worker.mjs dist/',
});

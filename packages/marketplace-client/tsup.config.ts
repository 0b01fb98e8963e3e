import { defineConfig } from 'tsup';

// @dcg/client-transport is private: its code and types are bundled into this package's dist, so
// the published manifest names nothing of it.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: { resolve: ['@dcg/client-transport'] },
  noExternal: ['@dcg/client-transport'],
  clean: true,
  sourcemap: true,
  target: 'node20',
});

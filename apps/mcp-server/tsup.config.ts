import { defineConfig } from 'tsup';

// The production build: `node dist/main.js`. The workspace packages stay external and load from
// their own `dist` (turbo builds them first); so do the dependencies, from node_modules.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  splitting: false,
});

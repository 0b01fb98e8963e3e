import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', utf8: 'src/utf8.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});

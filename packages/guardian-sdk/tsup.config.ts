import { defineConfig } from 'tsup';

export default defineConfig({
  // `cli` starts with a shebang: tsup keeps it and marks dist/cli.js executable.
  entry: {
    index: 'src/index.ts',
    node: 'src/node/index.ts',
    postgres: 'src/postgres/index.ts',
    cli: 'src/cli.ts',
  },
  format: ['esm'],
  dts: {
    entry: { index: 'src/index.ts', node: 'src/node/index.ts', postgres: 'src/postgres/index.ts' },
  },
  clean: true,
  sourcemap: true,
  target: 'node20',
});

import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library as ESM and CommonJS, each with its own declarations (`.d.ts`, `.d.cts`), so that
    // `import` and `require` resolve to types of their own format under every moduleResolution.
    // The CLI's output is spared by the clean (the two builds run in parallel).
    entry: { index: 'src/index.ts', node: 'src/node/index.ts', postgres: 'src/postgres/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    // The private @dcg/client-transport (the governance client's exchange) is bundled: the
    // published manifest names nothing private. Its types do not appear in the SDK's API.
    noExternal: ['@dcg/client-transport'],
    clean: ['!cli.js', '!cli.js.map'],
    sourcemap: true,
    target: 'node20',
  },
  {
    // `cli` starts with a shebang: tsup keeps it and marks dist/cli.js executable. ESM only.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    dts: false,
    noExternal: ['@dcg/client-transport'],
    clean: false,
    sourcemap: true,
    target: 'node20',
  },
]);

import { defineConfig } from 'tsup';

// dcg-kg is written in apps/kg-api (src/cli.ts, next to the API it talks to) on the private
// @dcg/knowledge-graph (RDF formats and the local syntax check). This package bundles that code
// from source into one file, so that the published CLI depends on public packages only.
export default defineConfig({
  entry: {
    'dcg-kg': 'src/dcg-kg.ts',
    // JSON-LD and RDF/XML are converted in a worker that knowledge-graph starts from
    // `./rdf-worker-thread.js` next to the running module: next to dcg-kg.js here.
    'rdf-worker-thread': '../knowledge-graph/src/node/rdf-worker-thread.js',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: false,
  dts: false,
  noExternal: [/^@dcg\//],
  esbuildOptions(options) {
    options.conditions = ['@dcg/source'];
  },
});

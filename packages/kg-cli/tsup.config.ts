import { defineConfig } from 'tsup';

// dcg-kg talks to kg-api through the published @dcg/kg-client (a dependency) and checks each file
// locally with the private @dcg/knowledge-graph (RDF formats, the syntax check): that one and the
// other private packages are bundled from source, so the published CLI depends on public packages
// only.
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
  noExternal: [/^@dcg\/(?!kg-client$)/],
  esbuildOptions(options) {
    options.conditions = ['@dcg/source'];
  },
});

import { libraryBuild } from '../../tsup.presets';

export default libraryBuild({
  entry: ['src/index.ts', 'src/node/index.ts'],
  // The worker thread is plain JavaScript: types only for the TypeScript entries.
  dts: { entry: ['src/index.ts', 'src/node/index.ts'] },
  // The parsing worker is plain JavaScript loaded by URL next to dist/node/index.js.
  onSuccess: 'cp src/node/rdf-worker-thread.js dist/node/rdf-worker-thread.js',
});

import { libraryBuild } from '../../tsup.presets';

export default libraryBuild({
  entry: ['src/index.ts', 'src/node/index.ts', 'src/node/testing.ts'],
  external: ['vitest'],
});

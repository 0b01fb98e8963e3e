import { libraryWithCliBuild } from '../../tsup.presets';

export default libraryWithCliBuild({
  index: 'src/index.ts',
  node: 'src/node/index.ts',
  postgres: 'src/postgres/index.ts',
});

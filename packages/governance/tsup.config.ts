import { libraryBuild } from '../../tsup.presets';

export default libraryBuild({
  entry: {
    index: 'src/index.ts',
    sqlite: 'src/storage/sqlite/index.ts',
    postgres: 'src/storage/postgres/index.ts',
  },
});

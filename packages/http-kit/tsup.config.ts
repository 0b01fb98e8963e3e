import { libraryBuild } from '../../tsup.presets';

export default libraryBuild({ entry: { index: 'src/index.ts', utf8: 'src/utf8.ts' } });

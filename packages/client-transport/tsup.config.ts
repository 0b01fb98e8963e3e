import { libraryBuild } from '../../tsup.presets';

export default libraryBuild({ entry: ['src/index.ts'], target: 'es2022' });

import { libraryBuild } from '../../tsup.presets';

export default libraryBuild({ entry: ['src/index.ts'], format: ['esm', 'cjs'] });

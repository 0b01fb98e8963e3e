import { libraryBuild } from '../../tsup.presets';

// es2022: the published clients bundle it into browser builds too.
export default libraryBuild({ entry: ['src/index.ts'], target: 'es2022' });

import { libraryWithCliBuild } from '../../tsup.presets';

export default libraryWithCliBuild({ index: 'src/index.ts' });

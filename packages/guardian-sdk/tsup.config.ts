import { libraryWithCliBuild } from '../../tsup.presets';

// The private @dcg/client-transport (the governance client's exchange) is bundled: the published
// manifest names nothing private. Its types do not appear in the SDK's API.
export default libraryWithCliBuild(
  { index: 'src/index.ts', node: 'src/node/index.ts', postgres: 'src/postgres/index.ts' },
  { noExternal: ['@dcg/client-transport'] },
);

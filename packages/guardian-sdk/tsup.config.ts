import { bundlingPrivate, libraryWithCliBuild } from '../../tsup.presets';

// The private @dcg/client-transport (the governance client's exchange) and @dcg/coded-error (the
// base of GuardianSdkError) are bundled: the published manifest names nothing private.
export default libraryWithCliBuild(
  { index: 'src/index.ts', node: 'src/node/index.ts', postgres: 'src/postgres/index.ts' },
  bundlingPrivate(['@dcg/client-transport', '@dcg/coded-error']),
);

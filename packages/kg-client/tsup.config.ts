import type { Options } from 'tsup';
import { bundlingClientBuild } from '../client-transport/src/bundling-client.tsup';

// Bundles the private @dcg/client-transport (code and types) into dist; `./graphs` is its own
// entry so that the root entry's browser bundle stays small.
const build: Options = { ...bundlingClientBuild, entry: ['src/index.ts', 'src/graphs.ts'] };
export default build;

// Bundles the private @dcg/client-transport (code and types) into dist.
export { bundlingClientBuild as default } from '../client-transport/src/bundling-client.tsup';

import { bundlingPrivate, libraryBuild } from '../../../tsup.presets';

/**
 * The build of a published client that bundles this private package and the one below it
 * (`@dcg/coded-error`): their code and types go into the client's `dist`, so the client's
 * published manifest names nothing of them. (In `src/` so that a change to it rebuilds the
 * clients: turbo hashes this package's sources.)
 *
 * @example
 * export { bundlingClientBuild as default } from '../client-transport/src/bundling-client.tsup';
 */
export const bundlingClientBuild = libraryBuild({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  ...bundlingPrivate(['@dcg/client-transport', '@dcg/coded-error']),
});

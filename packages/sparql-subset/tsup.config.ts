import { bundlingPrivate, libraryBuild } from '../../tsup.presets';

// The private @dcg/coded-error (the base of SparqlSubsetError) is bundled, code and types.
export default libraryBuild({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  ...bundlingPrivate(['@dcg/coded-error']),
});

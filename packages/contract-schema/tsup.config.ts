import { bundlingPrivate, libraryWithCliBuild } from '../../tsup.presets';

// `./json-path` is an entry of its own: the KG wire (kg-schema, in browser bundles) renders issue
// paths with it without loading the contract schemas. The private @dcg/coded-error (the base of
// ContractSchemaError) is bundled, code and types.
export default libraryWithCliBuild(
  { index: 'src/index.ts', 'json-path': 'src/json-path.ts' },
  bundlingPrivate(['@dcg/coded-error']),
);

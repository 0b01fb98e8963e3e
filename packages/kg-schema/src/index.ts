// A module re-exported whole (`export *`) is public in everything it exports; from the others,
// the names listed.
export { IriSchema, isAbsoluteIri } from './iri';
export * from './problem-details';
export * from './schema-issues';
export * from './search-request';
export * from './search-response';
export * from './sources';
export * from './sparql-results';

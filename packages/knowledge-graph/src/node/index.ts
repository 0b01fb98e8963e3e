export { FileGraphPersistence } from './file-graph-persistence';
export { jsonLdInWorker } from './json-ld-worker';

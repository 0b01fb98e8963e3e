export { FileGraphPersistence } from './file-graph-persistence';
export { DEFAULT_JSON_LD_WORKER_HEAP_MB, jsonLdInWorker } from './json-ld-worker';

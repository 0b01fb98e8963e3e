export { FileGraphPersistence } from './file-graph-persistence';
export {
  decodeSnapshot,
  encodeSnapshot,
  readSnapshotHeader,
  SNAPSHOT_FORMAT_VERSION,
  type SnapshotHeader,
} from './graph-snapshot';
export {
  PostgresGraphPersistence,
  type PostgresGraphPersistenceOptions,
} from './postgres-graph-persistence';
export {
  DEFAULT_RDF_WORKER_HEAP_MB,
  DEFAULT_RDF_WORKER_TIMEOUT_MS,
  rdfInWorker,
} from './rdf-worker';

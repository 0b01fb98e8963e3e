export { FileGraphPersistence } from './file-graph-persistence';
export {
  DEFAULT_RDF_WORKER_HEAP_MB,
  DEFAULT_RDF_WORKER_TIMEOUT_MS,
  rdfInWorker,
} from './rdf-worker';

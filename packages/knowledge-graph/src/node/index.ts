export { FileGraphPersistence } from './file-graph-persistence';

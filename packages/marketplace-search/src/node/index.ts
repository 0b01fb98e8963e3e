export {
  createLocalEmbedder,
  LOCAL_EMBEDDER_MODEL,
  type LocalEmbedderOptions,
} from './local-embedder';

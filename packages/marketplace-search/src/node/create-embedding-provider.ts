import type { EmbeddingProvider } from '../embedding-provider';
import { type EmbeddingsModelConfig, resolveEmbeddingsApiKey } from '../embeddings-search-config';
import {
  createAzureOpenAIProvider,
  createOpenAICompatibleProvider,
} from '../http-embedding-provider';
import { createLocalEmbedder } from './local-embedder';

/**
 * The provider that `embeddingsModel` configures, its key read from the named secret variable
 * (a missing or empty one throws `invalid_config`, naming the variable).
 *
 * @example
 * const provider = createEmbeddingProvider(EmbeddingsModelConfigSchema.parse({}), process.env); // the local embedder
 */
export function createEmbeddingProvider(
  model: EmbeddingsModelConfig,
  env: Record<string, string | undefined>,
): EmbeddingProvider {
  if (model.provider === 'local') return createLocalEmbedder({ maxTokens: model.maxTokens });
  const apiKey = resolveEmbeddingsApiKey(model, env);
  const limits = {
    batchSize: model.batchSize,
    timeoutMs: model.timeoutMs,
    maxRetries: model.maxRetries,
    ...(model.dimensions === undefined ? {} : { dimensions: model.dimensions }),
  };
  if (model.provider === 'azure_openai') {
    return createAzureOpenAIProvider({
      endpoint: model.endpoint as string,
      instanceName: model.instanceName as string,
      deploymentName: model.deploymentName as string,
      apiVersion: model.apiVersion as string,
      apiKey,
      model: model.model,
      ...limits,
    });
  }
  return createOpenAICompatibleProvider({
    endpoint: model.endpoint as string,
    apiKey,
    model: model.model,
    ...(model.instanceName === undefined ? {} : { instanceName: model.instanceName }),
    ...limits,
  });
}

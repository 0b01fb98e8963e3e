import { describe, expect, it } from 'vitest';
import {
  EmbeddingsModelConfigSchema,
  EmbeddingsSearchConfigSchema,
  resolveEmbeddingsApiKey,
} from './embeddings-search-config';

const azure = {
  provider: 'azure_openai',
  apiVersion: '2024-10-21',
  instanceName: 'acme',
  deploymentName: 'emb-large',
  endpoint: 'https://acme.openai.azure.com',
};

const issues = (input: unknown) =>
  EmbeddingsSearchConfigSchema.safeParse(input).error?.issues.map(
    (i) => `${i.path.join('.')}: ${i.message}`,
  ) ?? [];

describe('embeddingsSearch configuration', () => {
  it('defaults to the local embedder, enabled', () => {
    const config = EmbeddingsSearchConfigSchema.parse({});
    expect(config).toMatchObject({
      enabled: true,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VARIABLE} reference syntax of the configuration
      embeddingsModel: { provider: 'local', apiKey: '${EMBEDDERENGINE_SERVICE_TOKEN}' },
    });
  });

  it("bounds the local model's token budget to what it can read (1-128)", () => {
    expect(EmbeddingsSearchConfigSchema.parse({}).embeddingsModel.maxTokens).toBe(64);
    expect(
      EmbeddingsSearchConfigSchema.parse({ embeddingsModel: { maxTokens: 128 } }).embeddingsModel
        .maxTokens,
    ).toBe(128);
    for (const maxTokens of [0, 129, 1.5]) {
      expect(issues({ embeddingsModel: { maxTokens } })).toEqual([
        expect.stringMatching(/^embeddingsModel\.maxTokens: /),
      ]);
    }
  });

  it('accepts a complete Azure OpenAI model, text-embedding-3-large by default', () => {
    expect(EmbeddingsModelConfigSchema.parse(azure).model).toBe('text-embedding-3-large');
    expect(
      EmbeddingsModelConfigSchema.parse({ ...azure, model: 'text-embedding-3-small' }).model,
    ).toBe('text-embedding-3-small');
  });

  it('names every bad or missing key', () => {
    expect(issues({ embeddingsModel: { provider: 'azure_openai' } })).toEqual([
      'embeddingsModel.apiVersion: required with provider azure_openai',
      'embeddingsModel.instanceName: required with provider azure_openai',
      'embeddingsModel.deploymentName: required with provider azure_openai',
      'embeddingsModel.endpoint: required with provider azure_openai',
    ]);
    expect(issues({ embeddingsModel: { ...azure, apiVersion: '2024-13-40' } })[0]).toMatch(
      /^embeddingsModel.apiVersion: .*YYYY-MM-DD/,
    );
    expect(issues({ embeddingsModel: { ...azure, apiVersion: '24-10-21' } })[0]).toMatch(
      /YYYY-MM-DD/,
    );
    expect(
      issues({ embeddingsModel: { ...azure, endpoint: 'http://acme.openai.azure.com' } })[0],
    ).toMatch(/HTTPS/);
    expect(issues({ embeddingsModel: { ...azure, endpoint: 'acme' } })[0]).toMatch(/HTTPS/);
    expect(issues({ embeddingsModel: { ...azure, model: 'ada-002' } })[0]).toMatch(
      /^embeddingsModel.model/,
    );
    expect(
      issues({
        embeddingsModel: { ...azure, model: 'text-embedding-3-small', dimensions: 2000 },
      })[0],
    ).toMatch(/at most 1536/);
    expect(issues({ embeddingsModel: { ...azure, extra: 1 } })[0]).toMatch(/extra/);
    expect(issues({ embeddingsModel: { provider: 'openai_compatible' } })).toEqual([
      'embeddingsModel.endpoint: required with provider openai_compatible',
    ]);
  });

  it('refuses a key written in the file, without repeating it', () => {
    const secret = 'sk-live-abcdefghijklmnop';
    const found = issues({ embeddingsModel: { ...azure, apiKey: secret } });
    expect(found[0]).toMatch(/^embeddingsModel.apiKey: name the secret variable/);
    expect(found.join('\n')).not.toContain(secret);
  });

  it('reads the key from the named variable, and names a missing or empty one', () => {
    const model = EmbeddingsModelConfigSchema.parse(azure);
    expect(resolveEmbeddingsApiKey(model, { EMBEDDERENGINE_SERVICE_TOKEN: ' k-123 ' })).toBe(
      'k-123',
    );
    expect(() => resolveEmbeddingsApiKey(model, {})).toThrow(
      /EMBEDDERENGINE_SERVICE_TOKEN is not set/,
    );
    expect(() => resolveEmbeddingsApiKey(model, { EMBEDDERENGINE_SERVICE_TOKEN: '' })).toThrow(
      /EMBEDDERENGINE_SERVICE_TOKEN is empty/,
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VARIABLE} reference syntax of the configuration
    const other = EmbeddingsModelConfigSchema.parse({ ...azure, apiKey: '${OTHER_TOKEN}' });
    expect(resolveEmbeddingsApiKey(other, { OTHER_TOKEN: 'x' })).toBe('x');
    expect(() => resolveEmbeddingsApiKey(other, { EMBEDDERENGINE_SERVICE_TOKEN: 'x' })).toThrow(
      /OTHER_TOKEN is not set/,
    );
  });
});

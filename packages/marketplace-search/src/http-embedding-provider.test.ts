import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketplaceSearchError } from './errors';
import {
  createAzureOpenAIProvider,
  createOpenAICompatibleProvider,
} from './http-embedding-provider';
import { type FakeEmbeddingsApi, startFakeEmbeddingsApi } from './node/embeddings-api.testkit';

const KEY = 'azure-key-0123456789abcdef0123456789';
let api: FakeEmbeddingsApi;

beforeAll(async () => {
  api = await startFakeEmbeddingsApi({
    apiKey: KEY,
    deployments: { 'emb-large': 'text-embedding-3-large', 'emb-small': 'text-embedding-3-small' },
  });
});
afterAll(() => api.close());

const azure = (over: Partial<Parameters<typeof createAzureOpenAIProvider>[0]> = {}) =>
  createAzureOpenAIProvider({
    endpoint: api.url,
    instanceName: 'acme-prod',
    deploymentName: 'emb-small',
    apiVersion: '2024-10-21',
    apiKey: KEY,
    model: 'text-embedding-3-small',
    maxRetryDelayMs: 5000,
    ...over,
  });

async function rejection(promise: Promise<unknown>): Promise<MarketplaceSearchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(MarketplaceSearchError.isInstance(error)).toBe(true);
  return error as MarketplaceSearchError;
}

describe('Azure OpenAI provider', () => {
  it('embeds through the deployment path with api-key and api-version, one vector per input in order', async () => {
    const before = api.requests.length;
    const vectors = await azure().embed([
      'customer invoices',
      'truck positions',
      'customer invoices',
    ]);
    expect(vectors).toHaveLength(3);
    expect(vectors[0]).toHaveLength(1536);
    expect(Array.from(vectors[0] as Float32Array)).toEqual(Array.from(vectors[2] as Float32Array));
    const [request] = api.requests.slice(before);
    expect(request).toMatchObject({
      flavour: 'azure',
      path: '/openai/deployments/emb-small/embeddings',
      inputs: 3,
      keyMatched: true,
    });
    expect(azure().model).toBe('azure_openai:text-embedding-3-small:1536');
    expect(azure({ deploymentName: 'emb-large', model: 'text-embedding-3-large' }).dimensions).toBe(
      3072,
    );
  });

  it('splits inputs into batches within the 2048-input limit', async () => {
    const before = api.requests.length;
    const texts = Array.from({ length: 2100 }, (_, i) => `instance ${i}`);
    const vectors = await azure({ batchSize: 5000 }).embed(texts);
    expect(vectors).toHaveLength(2100);
    expect(api.requests.slice(before).map((r) => r.inputs)).toEqual([2048, 52]);
    const small = api.requests.length;
    await azure({ batchSize: 10 }).embed(texts.slice(0, 25));
    expect(api.requests.slice(small).map((r) => r.inputs)).toEqual([10, 10, 5]);
  });

  it('passes dimensions when configured shorter', async () => {
    const provider = azure({ dimensions: 256 });
    expect(provider.model).toBe('azure_openai:text-embedding-3-small:256');
    const [v] = await provider.embed(['x y']);
    expect(v).toHaveLength(256);
    expect(api.requests.at(-1)?.dimensions).toBe(256);
  });

  it('retries a 429 after Retry-After and a 503 with backoff, then succeeds', async () => {
    const before = api.requests.length;
    api.fail({ status: 429, retryAfter: '1' });
    api.fail({ status: 503 });
    const started = Date.now();
    const vectors = await azure().embed(['invoices']);
    expect(vectors).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(api.requests.length - before).toBe(3);
  });

  it('honours retry-after-ms before Retry-After', async () => {
    api.fail({ status: 429, retryAfterMs: '50', retryAfter: '30' });
    const started = Date.now();
    await azure().embed(['invoices']);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives up at once when Retry-After is longer than the longest wait, and says when to retry', async () => {
    api.fail({ status: 429, retryAfter: '120' });
    const error = await rejection(azure().embed(['invoices']));
    expect(error.code).toBe('provider_rate_limited');
    expect(error.retryAfterSeconds).toBe(120);
    expect(error.message).toContain('Azure OpenAI instance "acme-prod" (deployment "emb-small")');
    expect(error.message).toContain('HTTP 429');
  });

  it('stops after maxRetries of 5xx', async () => {
    for (let i = 0; i < 3; i++) api.fail({ status: 500 });
    const error = await rejection(azure({ maxRetries: 2 }).embed(['invoices']));
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toContain('after 3 attempts');
    expect(error.message).toContain('The server had an error');
  });

  it('does not retry a wrong key, says why, and never shows the key', async () => {
    const before = api.requests.length;
    const wrongKey = 'wrong-key-abcdefghijklmnopqrstuv';
    const error = await rejection(azure({ apiKey: wrongKey }).embed(['invoices']));
    expect(error.code).toBe('provider_rejected');
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('Access denied');
    expect(error.message).not.toContain(wrongKey);
    expect(api.requests.length - before).toBe(1);
  });

  it('redacts the key when an error body echoes it', async () => {
    api.fail({ status: 400, body: JSON.stringify({ error: { message: `bad key ${KEY}` } }) });
    const error = await rejection(azure().embed(['x']));
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('[redacted]');
  });

  it('names an unknown deployment', async () => {
    const error = await rejection(azure({ deploymentName: 'nope' }).embed(['x']));
    expect(error.code).toBe('provider_rejected');
    expect(error.message).toContain('HTTP 404');
    expect(error.message).toContain('deployment for this resource does not exist');
  });

  it('refuses vectors of other dimensions than the configured model (deployment of another model)', async () => {
    const error = await rejection(azure({ deploymentName: 'emb-large' }).embed(['x']));
    expect(error.code).toBe('provider_bad_response');
    expect(error.message).toContain('3072 dimensions, expected 1536');
  });

  it('times out a call that does not answer, retrying first', async () => {
    api.fail({ status: 200, delayMs: 1500 });
    api.fail({ status: 200, delayMs: 1500 });
    const error = await rejection(azure({ timeoutMs: 200, maxRetries: 1 }).embed(['x']));
    expect(error.code).toBe('provider_timeout');
    expect(error.message).toContain('no answer within 200 ms');
  });

  it('reports an unreachable endpoint', async () => {
    const error = await rejection(
      azure({ endpoint: 'http://127.0.0.1:1', maxRetries: 1 }).embed(['x']),
    );
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toContain('unreachable');
  });
});

describe('OpenAI-compatible provider', () => {
  const openai = (over: Partial<Parameters<typeof createOpenAICompatibleProvider>[0]> = {}) =>
    createOpenAICompatibleProvider({
      endpoint: api.url,
      apiKey: KEY,
      model: 'text-embedding-3-small',
      ...over,
    });

  it('posts to /v1/embeddings with a bearer key and the model', async () => {
    const before = api.requests.length;
    const vectors = await openai().embed(['a b', 'c d']);
    expect(vectors).toHaveLength(2);
    expect(api.requests.slice(before)).toEqual([
      {
        flavour: 'openai',
        path: '/v1/embeddings',
        inputs: 2,
        keyMatched: true,
        dimensions: undefined,
      },
    ]);
    await openai({ endpoint: `${api.url}/v1/` }).embed(['x']);
    expect(api.requests.at(-1)?.path).toBe('/v1/embeddings');
  });

  it('surfaces invalid_api_key and model_not_found messages', async () => {
    const badKey = await rejection(openai({ apiKey: 'another-key-000000000000' }).embed(['x']));
    expect(badKey.message).toContain('Incorrect API key provided');
    const server = createOpenAICompatibleProvider({
      endpoint: api.url,
      apiKey: KEY,
      model: 'text-embedding-9' as 'text-embedding-3-small',
      dimensions: 8,
    });
    const unknown = await rejection(server.embed(['x']));
    expect(unknown.message).toContain('does not exist');
  });

  it('retries 429 with Retry-After as an HTTP date', async () => {
    api.fail({ status: 429, retryAfter: new Date(Date.now() + 1000).toUTCString() });
    await expect(openai().embed(['x'])).resolves.toHaveLength(1);
  });
});

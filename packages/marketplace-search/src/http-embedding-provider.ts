import { type ExchangeAnswer, ExchangeError, exchange, retryAfterMs } from '@dcg/client-transport';
import { z } from 'zod';
import type { EmbeddingProvider } from './embedding-provider';
import { MarketplaceSearchError } from './errors';

/** The models the cloud providers support, with their native dimensions. */
export const OPENAI_EMBEDDING_MODELS = {
  'text-embedding-3-large': 3072,
  'text-embedding-3-small': 1536,
} as const;

/**
 * The similarity floor of the text-embedding-3 models: a starting point (their unrelated texts
 * score about 0.0–0.15, related ones 0.3 and more), not measured here; set
 * `embeddingsSearch.minSimilarity` after measuring with the deployed model.
 */
export const OPENAI_MIN_SIMILARITY = 0.2;

/** A supported cloud embedding model. */
export type OpenAIEmbeddingModel = keyof typeof OPENAI_EMBEDDING_MODELS;

/**
 * Limits and retry behaviour shared by the HTTP providers.
 *
 * @example
 * const limits: HttpProviderLimits = { batchSize: 256, timeoutMs: 30_000, maxRetries: 5 };
 */
export interface HttpProviderLimits {
  /** Inputs per request (the APIs accept at most 2048). Default 256. */
  batchSize?: number;
  /** Timeout of one HTTP call. Default 30 s. */
  timeoutMs?: number;
  /** Retries after 429, 408 and 5xx and network failures. Default 5. */
  maxRetries?: number;
  /** Longest wait before a retry; a longer `Retry-After` fails at once. Default 60 s. */
  maxRetryDelayMs?: number;
  /** Characters per input; longer texts are cut (the models read 8,191 tokens). Default 24,000. */
  maxInputChars?: number;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

const ResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

const ErrorBodySchema = z.object({
  error: z.object({ message: z.string().optional(), code: z.unknown().optional() }),
});

const RETRYABLE = new Set([408, 429, 500, 502, 503, 504]);

function redact(text: string, secret: string): string {
  const bounded = text.length > 500 ? `${text.slice(0, 500)}…` : text;
  return secret.length >= 4 ? bounded.split(secret).join('[redacted]') : bounded;
}

interface HttpCall {
  url: string;
  headers: Record<string, string>;
  body: (input: string[]) => Record<string, unknown>;
  /** Names the provider instance in errors, e.g. `Azure OpenAI instance "prod" (deployment emb)`. */
  label: string;
  secret: string;
}

/**
 * An embedding provider over an OpenAI-style `/embeddings` HTTP API: batches, retries 408/429/5xx
 * and network failures honouring `retry-after-ms` and `Retry-After`, times out each call, and
 * checks the answer (one vector per input, of the expected dimensions).
 */
function httpProvider(
  model: string,
  dimensions: number,
  call: HttpCall,
  limits: HttpProviderLimits,
): EmbeddingProvider {
  const batchSize = Math.min(2048, Math.max(1, limits.batchSize ?? 256));
  const timeoutMs = limits.timeoutMs ?? 30_000;
  const maxRetries = limits.maxRetries ?? 5;
  const maxRetryDelayMs = limits.maxRetryDelayMs ?? 60_000;
  const maxInputChars = limits.maxInputChars ?? 24_000;
  const doFetch = limits.fetch ?? fetch;

  const fail = (
    code: ConstructorParameters<typeof MarketplaceSearchError>[0],
    why: string,
    extra: { cause?: unknown; retryAfterSeconds?: number } = {},
  ) => new MarketplaceSearchError(code, `${call.label}: ${redact(why, call.secret)}`, extra);

  async function embedBatch(
    input: string[],
    signal: AbortSignal | undefined,
  ): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      let answer: ExchangeAnswer;
      try {
        answer = await exchange(
          call.url,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...call.headers },
            body: JSON.stringify(call.body(input)),
          },
          {
            timeoutMs,
            maxResponseBytes: maxAnswerBytes(input.length, dimensions),
            signal,
            fetch: doFetch,
          },
        );
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        const code = ExchangeError.isInstance(cause) ? cause.code : 'network';
        if (code === 'too_large' || code === 'not_utf8' || code === 'redirect_refused') {
          throw fail('provider_bad_response', (cause as Error).message, { cause });
        }
        const timedOut = code === 'timeout';
        if (attempt >= maxRetries) {
          throw fail(
            timedOut ? 'provider_timeout' : 'provider_unavailable',
            timedOut
              ? `no answer within ${timeoutMs} ms (${attempt + 1} attempts)`
              : `unreachable (${((cause as Error).cause as Error | undefined)?.message ?? (cause as Error).message}; ${attempt + 1} attempts)`,
            { cause },
          );
        }
        await sleep(backoff(attempt), signal);
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) {
        const parsed = ResponseSchema.safeParse(safeJson(answer.text));
        if (!parsed.success)
          throw fail('provider_bad_response', 'the answer is not an embeddings list');
        const vectors: Float32Array[] = new Array(input.length);
        for (const item of parsed.data.data) {
          if (item.index >= input.length)
            throw fail('provider_bad_response', `index ${item.index} out of range`);
          if (item.embedding.length !== dimensions) {
            throw fail(
              'provider_bad_response',
              `vectors of ${item.embedding.length} dimensions, expected ${dimensions} (is the deployment the configured model?)`,
            );
          }
          vectors[item.index] = Float32Array.from(item.embedding);
        }
        if (parsed.data.data.length !== input.length || vectors.some((v) => v === undefined)) {
          throw fail(
            'provider_bad_response',
            `${parsed.data.data.length} vectors for ${input.length} inputs`,
          );
        }
        return vectors;
      }
      const text = answer.text.slice(0, 64 * 1024);
      const body = ErrorBodySchema.safeParse(safeJson(text));
      const reason =
        body.success && body.data.error.message
          ? body.data.error.message
          : text || answer.statusText;
      if (!RETRYABLE.has(answer.status)) {
        throw fail('provider_rejected', `HTTP ${answer.status}: ${reason}`);
      }
      const wait = retryAfterMs(answer.headers);
      const code = answer.status === 429 ? 'provider_rate_limited' : 'provider_unavailable';
      if (attempt >= maxRetries || (wait !== undefined && wait > maxRetryDelayMs)) {
        throw fail(code, `HTTP ${answer.status} after ${attempt + 1} attempts: ${reason}`, {
          ...(wait === undefined ? {} : { retryAfterSeconds: Math.ceil(wait / 1000) }),
        });
      }
      await sleep(wait ?? backoff(attempt), signal);
    }
  }

  return {
    model,
    dimensions,
    minSimilarity: OPENAI_MIN_SIMILARITY,
    async embed(texts, options) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const batch = texts
          .slice(i, i + batchSize)
          .map((t) => (t.length > maxInputChars ? t.slice(0, maxInputChars) : t) || ' ');
        out.push(...(await embedBatch(batch, options?.signal)));
      }
      return out;
    },
  };
}

/**
 * The largest answer read for a batch: its vectors as JSON text (a float takes at most about 25
 * characters) plus room for the envelope; a longer answer is not an embeddings list.
 */
function maxAnswerBytes(inputs: number, dimensions: number): number {
  return inputs * dimensions * 25 + 64 * 1024;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function backoff(attempt: number): number {
  return Math.min(8000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

function dimensionsOf(model: OpenAIEmbeddingModel, dimensions: number | undefined): number {
  return dimensions ?? OPENAI_EMBEDDING_MODELS[model];
}

/**
 * Options of {@link createAzureOpenAIProvider}: the `embeddingsModel` configuration (spec B1).
 *
 * @example
 * const options: AzureOpenAIProviderOptions = { endpoint: 'https://acme.openai.azure.com', instanceName: 'acme',
 *   deploymentName: 'emb-large', apiVersion: '2024-10-21', apiKey: process.env.EMBEDDERENGINE_SERVICE_TOKEN ?? '',
 *   model: 'text-embedding-3-large' };
 */
export interface AzureOpenAIProviderOptions extends HttpProviderLimits {
  endpoint: string;
  instanceName: string;
  deploymentName: string;
  apiVersion: string;
  apiKey: string;
  model: OpenAIEmbeddingModel;
  /** Shorter vectors (text-embedding-3 models accept `dimensions`); default the model's own. */
  dimensions?: number;
}

/**
 * Azure OpenAI embeddings: `POST {endpoint}/openai/deployments/{deploymentName}/embeddings?api-version={apiVersion}`
 * with the `api-key` header.
 *
 * @example
 * const provider = createAzureOpenAIProvider(options);
 * const [vector] = await provider.embed(['customer invoices']);
 */
export function createAzureOpenAIProvider(options: AzureOpenAIProviderOptions): EmbeddingProvider {
  const dimensions = dimensionsOf(options.model, options.dimensions);
  const base = options.endpoint.replace(/\/+$/, '');
  return httpProvider(
    `azure_openai:${options.model}:${dimensions}`,
    dimensions,
    {
      url: `${base}/openai/deployments/${encodeURIComponent(options.deploymentName)}/embeddings?api-version=${encodeURIComponent(options.apiVersion)}`,
      headers: { 'api-key': options.apiKey },
      body: (input) => ({
        input,
        ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
      }),
      label: `Azure OpenAI instance "${options.instanceName}" (deployment "${options.deploymentName}")`,
      secret: options.apiKey,
    },
    options,
  );
}

/**
 * Options of {@link createOpenAICompatibleProvider}.
 *
 * @example
 * const options: OpenAICompatibleProviderOptions = { endpoint: 'https://api.example.com', apiKey: 'sk-…', model: 'text-embedding-3-small' };
 */
export interface OpenAICompatibleProviderOptions extends HttpProviderLimits {
  /** Base URL; `/v1/embeddings` is appended (`/embeddings` when it already ends in `/v1`). */
  endpoint: string;
  apiKey: string;
  model: OpenAIEmbeddingModel;
  dimensions?: number;
  /** Names the instance in errors (default the endpoint's host). */
  instanceName?: string;
}

/**
 * Any OpenAI-compatible embeddings API: `POST {endpoint}/v1/embeddings` with a bearer key.
 *
 * @example
 * const provider = createOpenAICompatibleProvider({ endpoint: 'https://api.openai.com', apiKey, model: 'text-embedding-3-small' });
 */
export function createOpenAICompatibleProvider(
  options: OpenAICompatibleProviderOptions,
): EmbeddingProvider {
  const dimensions = dimensionsOf(options.model, options.dimensions);
  const base = options.endpoint.replace(/\/+$/, '');
  const url = base.endsWith('/v1') ? `${base}/embeddings` : `${base}/v1/embeddings`;
  return httpProvider(
    `openai_compatible:${options.model}:${dimensions}`,
    dimensions,
    {
      url,
      headers: { authorization: `Bearer ${options.apiKey}` },
      body: (input) => ({
        input,
        model: options.model,
        ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
      }),
      label: `OpenAI-compatible endpoint "${options.instanceName ?? new URL(base).host}"`,
      secret: options.apiKey,
    },
    options,
  );
}

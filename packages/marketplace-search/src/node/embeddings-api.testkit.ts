import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tokenize } from '../text-tokens';

/**
 * A scripted answer the fake API gives instead of embeddings (once each, in order).
 */
export interface ScriptedFault {
  status: number;
  retryAfter?: string;
  retryAfterMs?: string;
  /** Raw body; default an error body of the API's shape. */
  body?: string;
  /** Wait before answering (timeouts). */
  delayMs?: number;
  /** After the wait, answer normally (a slow call rather than a failed one). */
  passThrough?: boolean;
}

/**
 * A request the fake API received (the key is recorded only as whether it matched).
 */
export interface ReceivedRequest {
  flavour: 'azure' | 'openai';
  path: string;
  inputs: number;
  keyMatched: boolean;
  dimensions: number | undefined;
}

/**
 * Test server on 127.0.0.1 that speaks the Azure OpenAI embeddings API
 * (`/openai/deployments/{deployment}/embeddings?api-version=`, `api-key`) and the OpenAI one
 * (`/v1/embeddings`, bearer), with their status codes and error bodies, the 2048-input limit,
 * `Retry-After` / `retry-after-ms` on 429, and scripted faults. Vectors are deterministic bags of
 * hashed terms, so texts that share words are similar.
 *
 * @example
 * const api = await startFakeEmbeddingsApi({ apiKey: 'k'.repeat(32), deployments: { emb: 'text-embedding-3-small' } });
 * api.fail({ status: 429, retryAfter: '1' });
 * await api.close();
 */
export interface FakeEmbeddingsApi {
  url: string;
  requests: ReceivedRequest[];
  fail(fault: ScriptedFault): void;
  close(): Promise<void>;
}

const DIMS: Record<string, number> = {
  'text-embedding-3-large': 3072,
  'text-embedding-3-small': 1536,
};

function vectorOf(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const term of tokenize(text)) {
    let h = 0x811c9dc5;
    for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
    const slot = (h >>> 0) % dims;
    v[slot] = (v[slot] ?? 0) + 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeEmbeddingsApi(options: {
  apiKey: string;
  /** Azure deployments and the model each serves. */
  deployments?: Record<string, string>;
  /** Latency added to every answer (slow providers, long rebuilds). */
  delayMs?: number;
}): Promise<FakeEmbeddingsApi> {
  const faults: ScriptedFault[] = [];
  const requests: ReceivedRequest[] = [];
  const deployments = options.deployments ?? {};

  const send = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const openAIError = (message: string, type: string, code: string | null) => ({
    error: { message, type, param: null, code },
  });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const azure = /^\/openai\/deployments\/([^/]+)\/embeddings$/.exec(url.pathname);
    const openai = url.pathname === '/v1/embeddings';
    const raw = await readBody(req);
    if (req.method !== 'POST' || (!azure && !openai)) {
      return send(res, 404, { error: { code: '404', message: 'Resource not found' } });
    }
    const flavour = azure ? 'azure' : 'openai';
    const keyMatched = azure
      ? req.headers['api-key'] === options.apiKey
      : req.headers.authorization === `Bearer ${options.apiKey}`;
    let body: { input?: unknown; model?: unknown; dimensions?: unknown };
    try {
      body = JSON.parse(raw);
    } catch {
      return send(
        res,
        400,
        openAIError(
          'We could not parse the JSON body of your request.',
          'invalid_request_error',
          null,
        ),
      );
    }
    const inputs = Array.isArray(body.input)
      ? body.input
      : typeof body.input === 'string'
        ? [body.input]
        : [];
    const dimensions = typeof body.dimensions === 'number' ? body.dimensions : undefined;
    requests.push({ flavour, path: url.pathname, inputs: inputs.length, keyMatched, dimensions });

    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    const fault = faults.shift();
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault && !fault.passThrough) {
      const headers: Record<string, string> = {};
      if (fault.retryAfter) headers['retry-after'] = fault.retryAfter;
      if (fault.retryAfterMs) headers['retry-after-ms'] = fault.retryAfterMs;
      const defaultBody =
        fault.status === 429
          ? {
              error: {
                code: '429',
                message:
                  'Requests to the Embeddings_Create Operation have exceeded call rate limit. Please retry after 1 second.',
              },
            }
          : {
              error: {
                code: 'InternalServerError',
                message: 'The server had an error while processing your request.',
              },
            };
      if (!res.destroyed) send(res, fault.status, fault.body ?? defaultBody, headers);
      return;
    }
    if (!keyMatched) {
      return azure
        ? send(res, 401, {
            error: {
              code: '401',
              message:
                'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
            },
          })
        : send(
            res,
            401,
            openAIError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
          );
    }
    let model: string;
    if (azure) {
      const apiVersion = url.searchParams.get('api-version');
      if (!apiVersion || !/^\d{4}-\d{2}-\d{2}(-preview)?$/.test(apiVersion)) {
        return send(res, 404, { error: { code: '404', message: 'Resource not found' } });
      }
      const deployment = decodeURIComponent(azure[1] as string);
      const served = deployments[deployment];
      if (!served) {
        return send(res, 404, {
          error: {
            code: 'DeploymentNotFound',
            message:
              'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
          },
        });
      }
      model = served;
    } else {
      model = typeof body.model === 'string' ? body.model : '';
      if (!DIMS[model]) {
        return send(
          res,
          404,
          openAIError(
            `The model \`${model}\` does not exist or you do not have access to it.`,
            'invalid_request_error',
            'model_not_found',
          ),
        );
      }
    }
    if (inputs.length === 0 || inputs.some((i) => typeof i !== 'string' || i === '')) {
      return send(
        res,
        400,
        openAIError(
          "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
          'invalid_request_error',
          null,
        ),
      );
    }
    if (inputs.length > 2048) {
      return send(
        res,
        400,
        openAIError(
          `Too many inputs. The max number of inputs is 2048. We received ${inputs.length}.`,
          'invalid_request_error',
          null,
        ),
      );
    }
    const dims = dimensions ?? (DIMS[model] as number);
    send(res, 200, {
      object: 'list',
      data: (inputs as string[]).map((text, index) => ({
        object: 'embedding',
        index,
        embedding: vectorOf(text, dims),
      })),
      model,
      usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    fail: (fault) => faults.push(fault),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

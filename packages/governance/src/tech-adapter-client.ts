import { exchange } from '@dcg/client-transport';
import {
  type ProvisioningRequest,
  type ProvisioningStatus,
  ProvisioningStatusSchema,
  TechAdapterErrorSchema,
  TechAdapterSystemErrorSchema,
  toValidationIssues,
  ValidationResultSchema,
} from '@dcg/contract-schema';
import type { ZodSafeParseResult } from 'zod';
import { GovernanceError } from './errors';

/**
 * Timing of the tech adapter client. Polling of 202 tokens is bounded by `pollTimeoutMs`.
 *
 * @example
 * const options: TechAdapterClientOptions = { pollIntervalMs: 200, pollTimeoutMs: 60_000, requestTimeoutMs: 10_000 };
 */
export interface TechAdapterClientOptions {
  /** Pause between two status polls; default 500 ms. */
  pollIntervalMs?: number;
  /** Give up polling a token after this long; default 10 minutes. */
  pollTimeoutMs?: number;
  /** Timeout of each HTTP request; default 30 s. */
  requestTimeoutMs?: number;
  /** Largest adapter answer read; a longer one fails the call. Default 4 MiB. */
  maxResponseBytes?: number;
  /**
   * Redirects are never followed by default: a 307/308 would re-post the whole request, private
   * info included, wherever the adapter points. `same-origin` follows up to 5 redirects that stay
   * on the adapter's own scheme, host and port.
   */
  redirects?: 'refuse' | 'same-origin';
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * What an adapter's `POST /v1/validate` said about a provisioning request.
 *
 * @example
 * if (!verdict.valid) console.error(verdict.errors);
 */
export interface AdapterValidation {
  valid: boolean;
  errors: string[];
}

/** The adapter's answer checked against its spec shape `what`: `adapter_failure` naming each issue. */
function answerOf<T>(
  url: string,
  what: string,
  schema: { safeParse(value: unknown): ZodSafeParseResult<T> },
  body: unknown,
): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = toValidationIssues(parsed.error.issues)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ');
  throw adapterError(`The tech adapter at ${url} answered an invalid ${what}: ${issues}`);
}

/**
 * The final answer of a provisioning operation. `info` is `undefined` when the adapter left it out
 * and `null` when it answered null: the guardian rule treats the two differently.
 *
 * @example
 * if (outcome.status === 'FAILED') console.error(outcome.errors);
 */
export interface AdapterOutcome {
  status: 'COMPLETED' | 'FAILED';
  info: ProvisioningStatus['info'];
  result: string;
  logs: NonNullable<ProvisioningStatus['logs']>;
  errors: string[];
}

type Operation = 'provision' | 'unprovision';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function adapterError(message: string, cause?: unknown): GovernanceError {
  return new GovernanceError('adapter_failure', message, cause === undefined ? {} : { cause });
}

/** Error texts of a 4xx/5xx answer, in either error shape of the tech adapter API. */
function errorMessages(body: unknown): string[] {
  const request = TechAdapterErrorSchema.safeParse(body);
  if (request.success) {
    const messages = [
      ...(request.data.userMessage ? [request.data.userMessage] : []),
      ...request.data.errors,
    ];
    return [...messages, ...(request.data.moreInfo?.problems ?? [])];
  }
  const system = TechAdapterSystemErrorSchema.safeParse(body);
  if (system.success) {
    return [...(system.data.userMessage ? [system.data.userMessage] : []), system.data.error];
  }
  return [];
}

/**
 * HTTP client of the tech adapter API v2.2.0 (`POST /v1/validate`, `/v1/provision`,
 * `/v1/unprovision`, and their `GET /v1/{op}/{token}/status`). A 202 answer carries a token, which
 * is polled until the operation leaves RUNNING or the poll timeout passes. Redirects are not
 * followed (optionally: same origin only) and answers longer than `maxResponseBytes` are not read.
 *
 * @example
 * const client = new TechAdapterClient({ pollIntervalMs: 100 });
 * const outcome = await client.provision('http://127.0.0.1:8093/datamesh.specificprovisioner', request);
 */
export class TechAdapterClient {
  private readonly pollIntervalMs: number;
  private readonly pollTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly redirects: 'refuse' | 'same-origin';
  private readonly fetch: typeof fetch;

  constructor(options: TechAdapterClientOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.pollTimeoutMs = options.pollTimeoutMs ?? 600_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 4 * 1024 * 1024;
    this.redirects = options.redirects ?? 'refuse';
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /**
   * Asks the adapter whether it would accept the request (`POST /v1/validate`), without
   * provisioning anything. Throws `adapter_failure` when it cannot be reached or answers badly.
   */
  async validate(baseUrl: string, request: ProvisioningRequest): Promise<AdapterValidation> {
    const url = this.url(baseUrl, '/v1/validate');
    const answer = await this.call(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
    });
    if (answer.status !== 200) {
      const messages = errorMessages(answer.body);
      throw adapterError(
        `The tech adapter at ${url} answered ${answer.status}${messages.length > 0 ? `: ${messages.join('; ')}` : ''}`,
      );
    }
    const result = answerOf(url, 'ValidationResult', ValidationResultSchema, answer.body);
    return { valid: result.valid, errors: result.valid ? [] : (result.error?.errors ?? []) };
  }

  /** Deploys one component. Throws `adapter_failure` when the adapter cannot be reached or answers badly. */
  provision(baseUrl: string, request: ProvisioningRequest): Promise<AdapterOutcome> {
    return this.run('provision', baseUrl, request);
  }

  /** Undeploys one component. */
  unprovision(baseUrl: string, request: ProvisioningRequest): Promise<AdapterOutcome> {
    return this.run('unprovision', baseUrl, request);
  }

  private url(baseUrl: string, path: string): string {
    return `${baseUrl.replace(/\/+$/, '')}${path}`;
  }

  /** One request through the shared transport; any status is an answer, JSON parsed if it is. */
  private async call(
    url: string,
    init: RequestInit,
  ): Promise<{ status: number; body: unknown; text: string }> {
    let text: string;
    let status: number;
    try {
      ({ status, text } = await exchange(url, init, {
        timeoutMs: this.requestTimeoutMs,
        maxResponseBytes: this.maxResponseBytes,
        redirects: this.redirects,
        fetch: this.fetch,
      }));
    } catch (error) {
      throw adapterError(`The tech adapter at ${url} ${(error as Error).message}`, error);
    }
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: keep the text (a 202 token may come as plain text).
    }
    return { status, body, text };
  }

  private toOutcome(url: string, body: unknown): ProvisioningStatus {
    return answerOf(url, 'ProvisioningStatus', ProvisioningStatusSchema, body);
  }

  private final(status: ProvisioningStatus): AdapterOutcome {
    const failed = status.status === 'FAILED';
    return {
      status: failed ? 'FAILED' : 'COMPLETED',
      info: status.info,
      result: status.result,
      logs: status.logs ?? [],
      errors: failed
        ? [
            status.result ||
              status.logs
                ?.filter((l) => l.level === 'ERROR')
                .map((l) => l.message)
                .join('; ') ||
              'the tech adapter reported FAILED',
          ]
        : [],
    };
  }

  private async run(
    operation: Operation,
    baseUrl: string,
    request: ProvisioningRequest,
  ): Promise<AdapterOutcome> {
    const url = this.url(baseUrl, `/v1/${operation}`);
    const answer = await this.call(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
    });
    if (answer.status === 200) {
      const status = this.toOutcome(url, answer.body);
      if (status.status === 'RUNNING') {
        throw adapterError(
          `The tech adapter at ${url} answered 200 RUNNING without a token to poll`,
        );
      }
      return this.final(status);
    }
    if (answer.status === 202) {
      const token = typeof answer.body === 'string' ? answer.body.trim() : '';
      if (token === '') {
        throw adapterError(`The tech adapter at ${url} answered 202 without a token`);
      }
      return this.poll(operation, baseUrl, token);
    }
    const messages = errorMessages(answer.body);
    throw adapterError(
      `The tech adapter at ${url} answered ${answer.status}${messages.length > 0 ? `: ${messages.join('; ')}` : answer.text ? `: ${answer.text.slice(0, 500)}` : ''}`,
    );
  }

  private async poll(
    operation: Operation,
    baseUrl: string,
    token: string,
  ): Promise<AdapterOutcome> {
    const url = this.url(baseUrl, `/v1/${operation}/${encodeURIComponent(token)}/status`);
    const deadline = Date.now() + this.pollTimeoutMs;
    const logs: AdapterOutcome['logs'] = [];
    for (;;) {
      const answer = await this.call(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
      });
      if (answer.status !== 200) {
        const messages = errorMessages(answer.body);
        throw adapterError(
          `Polling ${url} answered ${answer.status}${messages.length > 0 ? `: ${messages.join('; ')}` : ''}`,
        );
      }
      const status = this.toOutcome(url, answer.body);
      if (status.status !== 'RUNNING') {
        const outcome = this.final(status);
        // Adapters may repeat logs in every poll answer: keep the final answer's when it has them.
        return outcome.logs.length > 0 ? outcome : { ...outcome, logs };
      }
      for (const line of status.logs ?? []) logs.push(line);
      if (Date.now() + this.pollIntervalMs > deadline) {
        throw adapterError(
          `The ${operation} operation ${token} at ${baseUrl} is still RUNNING after ${this.pollTimeoutMs} ms: giving up`,
        );
      }
      await sleep(this.pollIntervalMs);
    }
  }
}

import { type ExchangeAnswer, ExchangeError, exchange, retryAfterMs } from '@dcg/client-transport';
import { type EvaluationResultSubmission, validateSubmission } from '@dcg/contract-schema';
import { GuardianSdkError } from './guardian-sdk-error';

/** Options of {@link GovernanceClient}. */
export interface GovernanceClientOptions {
  /** Base URL of the governance API (`https://governance.example.com`). */
  baseUrl: string;
  /** Bearer API key (role `guardian`). */
  apiKey?: string | undefined;
  /** Each attempt's timeout, reading the answer included (default 10 000 ms). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 4). */
  retries?: number;
  /** First backoff delay; doubles each retry, with full jitter (default 200 ms). */
  backoffMs?: number;
  /** Upper bound of one wait, `Retry-After` included (default 30 000 ms). */
  maxBackoffMs?: number;
  /** A `fetch` to use (tests, instrumentation). */
  fetch?: typeof fetch;
}

/** What the governance API answered to an accepted submission. */
export interface SubmissionReceipt {
  status: number;
  attempts: number;
  body: Record<string, unknown>;
}

/** One submission: the policy, the environment and the A3 body. */
export interface SubmitInput {
  policyId: string;
  environment: string;
  body: EvaluationResultSubmission;
  signal?: AbortSignal | undefined;
}

/**
 * Transient answers, retried: a result overwrites the earlier one, so a POST sent twice is safe.
 * 429 and 503 wait as `Retry-After` says (at most `maxBackoffMs`).
 */
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** Failures of an attempt that another attempt may not meet. */
const RETRIED_FAILURES = new Set<string>(['timeout', 'network']);
/** The governance API answers a receipt or a problem: a few KiB. */
const MAX_RESPONSE_BYTES = 1 << 20;

/** The answer's body as a JSON object, or undefined when it is not one. */
function jsonObject(answer: ExchangeAnswer): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(answer.text);
    if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
  } catch {}
  return undefined;
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Submits evaluation results to `POST /v1/computational-governance/policies/{policyId}/evaluation-results?environment=`
 * with a bearer key. The body is validated against A3/A4 first (`invalid_result`, nothing sent).
 * Each attempt is one `exchange` of dcg's shared transport (`@dcg/client-transport`: a deadline
 * per attempt, a size cap on the answer, redirects refused so the key never goes elsewhere).
 * Network errors, timeouts, 408, 429 (honouring `Retry-After`), 500, 502, 503 and 504 are retried
 * with exponential backoff and full jitter (safe: a result overwrites the earlier one); other
 * answers are not. Errors are `GuardianSdkError` with `code` `problem` (and the problem details),
 * `network`, `timeout` or `aborted`.
 *
 * @example
 * const client = new GovernanceClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.DCG_KEY });
 * await client.submit({ policyId, environment: 'production', body });
 */
export class GovernanceClient {
  private readonly base: URL;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;

  constructor(private readonly options: GovernanceClientOptions) {
    try {
      this.base = new URL(options.baseUrl);
    } catch (error) {
      throw new GuardianSdkError('invalid_argument', `baseUrl is not a URL: ${options.baseUrl}`, {
        cause: error,
      });
    }
    if (!this.base.pathname.endsWith('/')) this.base.pathname += '/';
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.retries = options.retries ?? 4;
    this.backoffMs = options.backoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.headers = {
      accept: 'application/json, application/problem+json',
      'content-type': 'application/json',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    };
  }

  /** Sends one evaluation result; resolves when the governance API accepted it. */
  async submit(input: SubmitInput): Promise<SubmissionReceipt> {
    // Whatever built the body, what leaves conforms to A3/A4 (the fast path makes this cheap).
    const validation = validateSubmission(input.body);
    if (!validation.success) {
      throw new GuardianSdkError(
        'invalid_result',
        `the evaluation result does not conform to A3/A4, not sent: ${validation.issues
          .slice(0, 5)
          .map((i) => `${i.path}: ${i.message}`)
          .join('; ')}`,
        { problem: { issues: validation.issues } },
      );
    }
    const url = new URL(
      `v1/computational-governance/policies/${encodeURIComponent(input.policyId)}/evaluation-results`,
      this.base,
    );
    url.searchParams.set('environment', input.environment);
    const init: RequestInit = {
      method: 'POST',
      headers: this.headers,
      body: JSON.stringify(input.body),
    };
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= this.retries;
      let answer: ExchangeAnswer;
      try {
        answer = await exchange(url.href, init, {
          timeoutMs: this.timeoutMs,
          maxResponseBytes: MAX_RESPONSE_BYTES,
          signal: input.signal,
          fetch: this.options.fetch,
        });
      } catch (error) {
        const retried =
          ExchangeError.isInstance(error) &&
          RETRIED_FAILURES.has(error.code) &&
          !input.signal?.aborted;
        if (!retriesLeft || !retried) throw this.failure(error, input.signal);
        await this.wait(this.backoff(attempt), input.signal);
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) {
        return { status: answer.status, attempts: attempt, body: jsonObject(answer) ?? {} };
      }
      if (!retriesLeft || !RETRY_STATUSES.has(answer.status)) throw this.problem(answer);
      const asked =
        answer.status === 429 || answer.status === 503 ? retryAfterMs(answer.headers) : undefined;
      await this.wait(
        asked === undefined ? this.backoff(attempt) : Math.min(asked, this.maxBackoffMs),
        input.signal,
      );
    }
  }

  /** Full jitter over `backoffMs` doubled each retry, at most `maxBackoffMs`. */
  private backoff(attempt: number): number {
    return Math.random() * Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (attempt - 1));
  }

  private async wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await sleep(ms, signal);
    } catch (error) {
      throw new GuardianSdkError('aborted', 'the submission was aborted', { cause: error });
    }
  }

  private problem(answer: ExchangeAnswer): GuardianSdkError {
    const problem = jsonObject(answer) ?? {
      status: answer.status,
      title: answer.statusText,
      detail: answer.text.slice(0, 1000),
    };
    const detail = typeof problem.detail === 'string' ? `: ${problem.detail}` : '';
    return new GuardianSdkError(
      'problem',
      `the governance API answered ${answer.status}${typeof problem.title === 'string' ? ` ${problem.title}` : ''}${detail}`,
      { status: answer.status, problem },
    );
  }

  private failure(error: unknown, signal: AbortSignal | undefined): GuardianSdkError {
    if (signal?.aborted || (ExchangeError.isInstance(error) && error.code === 'aborted')) {
      return new GuardianSdkError('aborted', 'the submission was aborted', { cause: error });
    }
    if (ExchangeError.isInstance(error) && error.code === 'timeout') {
      return new GuardianSdkError('timeout', 'the governance API did not answer in time', {
        cause: error,
      });
    }
    // A refused redirect, an answer too large or not UTF-8: the server at baseUrl is not (only)
    // the governance API, which another attempt will not change.
    const message = error instanceof Error ? error.message : String(error);
    return new GuardianSdkError('network', `the governance API ${message}`, { cause: error });
  }
}

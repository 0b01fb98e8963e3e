import { type EvaluationResultSubmission, validateSubmission } from '@dcg/contract-schema';
import ky, { HTTPError, type KyInstance, TimeoutError } from 'ky';
import { GuardianSdkError } from './guardian-sdk-error';

/** Options of {@link GovernanceClient}. */
export interface GovernanceClientOptions {
  /** Base URL of the governance API (`https://governance.example.com`). */
  baseUrl: string;
  /** Bearer API key (role `guardian`). */
  apiKey?: string | undefined;
  /** Each attempt's timeout (default 10 000 ms). */
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

function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

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

async function problemOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
  } catch {}
  return { status: response.status, title: response.statusText, detail: text.slice(0, 1000) };
}

/**
 * Submits evaluation results to `POST /v1/computational-governance/policies/{policyId}/evaluation-results?environment=`
 * with a bearer key. The body is validated against A3/A4 first (`invalid_result`, nothing sent). Network errors, timeouts, 429 (honouring `Retry-After`) and 5xx are retried
 * with exponential backoff and full jitter (safe: a result overwrites the earlier one); other 4xx
 * are not. Errors are `GuardianSdkError` with `code` `problem` (and the problem details),
 * `network`, `timeout` or `aborted`.
 *
 * @example
 * const client = new GovernanceClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.DCG_KEY });
 * await client.submit({ policyId, environment: 'production', body });
 */
export class GovernanceClient {
  private readonly http: KyInstance;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;

  constructor(options: GovernanceClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch (error) {
      throw new GuardianSdkError('invalid_argument', `baseUrl is not a URL: ${options.baseUrl}`, {
        cause: error,
      });
    }
    this.retries = options.retries ?? 4;
    this.backoffMs = options.backoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.http = ky.create({
      prefixUrl: base.href,
      timeout: options.timeoutMs ?? 10_000,
      retry: 0,
      throwHttpErrors: false,
      headers: {
        accept: 'application/json, application/problem+json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** Sends one evaluation result; resolves when the governance API accepted it. */
  async submit(input: SubmitInput): Promise<SubmissionReceipt> {
    const path = `v1/computational-governance/policies/${encodeURIComponent(input.policyId)}/evaluation-results`;
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
    const payload = JSON.stringify(input.body);
    for (let attempt = 1; ; attempt++) {
      let wait: number;
      let failure: GuardianSdkError;
      try {
        const response = await this.http.post(path, {
          searchParams: { environment: input.environment },
          body: payload,
          headers: { 'content-type': 'application/json' },
          ...(input.signal ? { signal: input.signal } : {}),
        });
        if (response.ok) {
          const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
          return { status: response.status, attempts: attempt, body };
        }
        const problem = await problemOf(response);
        const detail = typeof problem.detail === 'string' ? `: ${problem.detail}` : '';
        failure = new GuardianSdkError(
          'problem',
          `the governance API answered ${response.status}${typeof problem.title === 'string' ? ` ${problem.title}` : ''}${detail}`,
          { status: response.status, problem },
        );
        if (response.status !== 429 && response.status < 500) throw failure;
        wait =
          retryAfterMs(response.headers.get('retry-after'), Date.now()) ?? this.backoff(attempt);
      } catch (error) {
        if (GuardianSdkError.isInstance(error)) throw error;
        if (input.signal?.aborted) {
          throw new GuardianSdkError('aborted', 'the submission was aborted', { cause: error });
        }
        if (error instanceof HTTPError) throw error;
        failure =
          error instanceof TimeoutError
            ? new GuardianSdkError('timeout', 'the governance API did not answer in time', {
                cause: error,
              })
            : new GuardianSdkError(
                'network',
                `the governance API cannot be reached: ${(error as Error).message}`,
                {
                  cause: error,
                },
              );
        wait = this.backoff(attempt);
      }
      if (attempt > this.retries) throw failure;
      try {
        await sleep(Math.min(wait, this.maxBackoffMs), input.signal);
      } catch (error) {
        throw new GuardianSdkError('aborted', 'the submission was aborted', { cause: error });
      }
    }
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (attempt - 1));
    return Math.random() * ceiling;
  }
}

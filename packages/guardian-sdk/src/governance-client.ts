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

/**
 * Transient answers, retried: a result overwrites the earlier one, so a POST sent twice is safe.
 * 429 and 503 wait as `Retry-After` says (at most `maxBackoffMs`).
 */
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];

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
 * with a bearer key. The body is validated against A3/A4 first (`invalid_result`, nothing sent).
 * Network errors, timeouts, 408, 429 (honouring `Retry-After`), 500, 502, 503 and 504 are retried
 * by ky's retry (the one retry implementation of dcg's clients) with exponential backoff and full
 * jitter (safe: a result overwrites the earlier one); other answers are not. Errors are
 * `GuardianSdkError` with `code` `problem` (and the problem details), `network`, `timeout` or
 * `aborted`.
 *
 * @example
 * const client = new GovernanceClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.DCG_KEY });
 * await client.submit({ policyId, environment: 'production', body });
 */
export class GovernanceClient {
  private readonly http: KyInstance;

  constructor(options: GovernanceClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch (error) {
      throw new GuardianSdkError('invalid_argument', `baseUrl is not a URL: ${options.baseUrl}`, {
        cause: error,
      });
    }
    const backoffMs = options.backoffMs ?? 200;
    const maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.http = ky.create({
      prefixUrl: base.href,
      timeout: options.timeoutMs ?? 10_000,
      retry: {
        limit: options.retries ?? 4,
        methods: ['post'],
        statusCodes: RETRY_STATUSES,
        afterStatusCodes: [429, 503],
        maxRetryAfter: maxBackoffMs,
        delay: (attempt) => backoffMs * 2 ** (attempt - 1),
        jitter: true,
        backoffLimit: maxBackoffMs,
        retryOnTimeout: true,
      },
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
    let attempts = 1;
    try {
      const response = await this.http.post(path, {
        searchParams: { environment: input.environment },
        body: JSON.stringify(input.body),
        headers: { 'content-type': 'application/json' },
        hooks: {
          beforeRetry: [
            ({ retryCount }) => {
              attempts = retryCount + 1;
            },
          ],
        },
        ...(input.signal ? { signal: input.signal } : {}),
      });
      const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      return { status: response.status, attempts, body };
    } catch (error) {
      if (input.signal?.aborted) {
        throw new GuardianSdkError('aborted', 'the submission was aborted', { cause: error });
      }
      if (error instanceof HTTPError) {
        const { response } = error;
        const problem = await problemOf(response);
        const detail = typeof problem.detail === 'string' ? `: ${problem.detail}` : '';
        throw new GuardianSdkError(
          'problem',
          `the governance API answered ${response.status}${typeof problem.title === 'string' ? ` ${problem.title}` : ''}${detail}`,
          { status: response.status, problem },
        );
      }
      if (error instanceof TimeoutError) {
        throw new GuardianSdkError('timeout', 'the governance API did not answer in time', {
          cause: error,
        });
      }
      throw new GuardianSdkError(
        'network',
        `the governance API cannot be reached: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

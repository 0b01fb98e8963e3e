import { hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { clientOfAddress } from './client-address';
import { parseConfig } from './config';
import type { Logger } from './logger';
import { problemResponse } from './problem';
import type { SharedLimitRule, SharedLimits } from './shared-limits';
import { TokenBucket, type TokenRate } from './token-bucket';

/**
 * The header in which a service trusted for it (`rateLimit({ endUserKeys })`) names the end user
 * a request is made for, so that limits count per user and not per calling service.
 */
export const END_USER_HEADER = 'X-Dcg-End-User';

const BucketSchema = z.strictObject({
  /** Tokens added per second: the sustained rate. */
  requestsPerSecond: z.number().positive().max(1_000_000),
  /** Bucket size: how many requests may come at once after a quiet spell. */
  burst: z.number().int().min(1).max(10_000_000),
});

/**
 * Per-client rate limits (token buckets): anonymous requests per client address, authenticated
 * ones per API key, and failed authentications per client address, much tighter. One schema for
 * every app's `rateLimit` configuration section.
 *
 * @example
 * RateLimitConfigSchema.parse({}).failedAuth.burst; // 10
 */
export const RateLimitConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Requests without a valid key, per client address (IPv6: per /64). */
  anonymous: BucketSchema.default({ requestsPerSecond: 20, burst: 100 }),
  /** Requests with a valid key, per key. */
  authenticated: BucketSchema.default({ requestsPerSecond: 500, burst: 1_000 }),
  /** Requests answered 401 although they carried credentials, per client address. */
  failedAuth: BucketSchema.default({ requestsPerSecond: 0.2, burst: 10 }),
  /** Take the client address from the last `X-Forwarded-For` entry (only behind a proxy that sets it). */
  trustForwardedFor: z.boolean().default(false),
  /** Client addresses remembered at most (the least recently seen is forgotten first). */
  maxClients: z.number().int().min(100).max(10_000_000).default(100_000),
  /**
   * On PostgreSQL storage, where the limits are shared: the longest wait for the database's
   * answer before this instance's own buckets decide instead.
   */
  sharedStoreTimeoutMs: z.number().int().min(10).max(60_000).default(1000),
  /**
   * On PostgreSQL storage: the most request points (`anonymous`, `authenticated`) one statement
   * claims for this instance to spend without asking again, at most an eighth of what the window
   * has left (1: one statement per request). Failed authentications are always counted one by one.
   */
  sharedClaimMax: z.number().int().min(1).max(1000).default(32),
});
/** Validated rate limits. */
export type RateLimitConfig = z.output<typeof RateLimitConfigSchema>;

interface ClientState {
  requests: TokenBucket;
  failures?: TokenBucket;
  /** Keys that authenticated from this address: a lock-out by others there does not hit them. */
  trustedKeys?: Set<string>;
}

const digestOf = (value: string) => hash('sha256', value, 'hex');

function tooMany(seconds: number, detail: string, code: string): Response {
  const retryAfter = Math.max(1, Math.ceil(seconds));
  return problemResponse(
    {
      status: 429,
      title: 'Too Many Requests',
      detail: `${detail}; retry after ${retryAfter} s`,
      code,
    },
    { 'Retry-After': String(retryAfter) },
  );
}

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** The configured API keys (the secrets, to recognise them; `name` identifies the bucket). */
  keys: ReadonlyArray<{ key: string; name?: string | undefined }>;
  config?: z.input<typeof RateLimitConfigSchema> | undefined;
  /**
   * Who sent a request whose credentials are not one of `keys` (e.g. the subject of a verified
   * OAuth access token), or undefined. A name counts the request in that principal's
   * `authenticated` bucket instead of the client address's.
   */
  principal?: (c: Context) => Promise<string | undefined> | string | undefined;
  /**
   * Names of keys trusted to say which end user they act for, in the {@link END_USER_HEADER}
   * header (a service such as mcp-server calling for its users): with such a key and the header,
   * each end user has an `authenticated` bucket of its own under the key. From any other key, or
   * without a key, the header is ignored.
   */
  endUserKeys?: readonly string[];
  /**
   * Counters in PostgreSQL shared by every instance on it (see `openSharedLimits`); absent:
   * this instance's memory. When the store does not answer, this instance's own buckets decide.
   */
  shared?: SharedLimits | undefined;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

/**
 * Rate limits every request before it reaches a route (`GET /health` and `GET /ready` are exempt,
 * so that probes never fail because of a flood). A request with a configured key counts against
 * that key's bucket, any other against its client address. A 401 to a request that carried
 * credentials also takes a token of the address's `failedAuth` bucket; once that is empty, every
 * request with credentials from the address is refused, except those with a key that already
 * authenticated from there (so an attacker cannot lock out the legitimate clients behind the same
 * address, and a refused guess tells nothing about the key). Over a limit: 429 with `Retry-After`.
 *
 * With `shared` (an app on PostgreSQL) the counters live in the database and every instance on it
 * draws from one budget; each bucket is then counted as a fixed window of `burst` requests per
 * `burst / requestsPerSecond` seconds (rounded up to whole seconds). When the database does not
 * answer, each instance falls back to its own in-memory buckets: the limits fail open to the
 * per-instance budget, never to no limit, and routes that need no database keep answering.
 *
 * @example
 * app.use(rateLimit({ keys: [{ key: 'a-long-secret', name: 'ops' }], config: { anonymous: { requestsPerSecond: 5, burst: 20 } } }));
 */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  const config = parseConfig(RateLimitConfigSchema, options.config ?? {}, 'rate limits');
  const now = options.now ?? (() => performance.now());
  if (!config.enabled) return (_c, next) => next();
  const keyIds = new Map<string, string>();
  options.keys.forEach((k, index) => {
    keyIds.set(digestOf(k.key), k.name ?? `key-${index}`);
  });
  const keyBuckets = new Map<string, TokenBucket>();
  const clients = new Map<string, ClientState>();

  const clientState = (client: string, at: number): ClientState => {
    let state = clients.get(client);
    if (state) {
      // Most recently seen last: the first entry is the one to forget.
      clients.delete(client);
    } else {
      state = { requests: new TokenBucket(config.anonymous, at) };
      if (clients.size >= config.maxClients) {
        const oldest = clients.keys().next().value;
        if (oldest !== undefined) clients.delete(oldest);
      }
    }
    clients.set(client, state);
    return state;
  };

  const clientOf = (c: Context): string => {
    if (config.trustForwardedFor) {
      const forwarded = c.req.header('x-forwarded-for');
      const last = forwarded?.split(',').pop()?.trim();
      if (last) return clientOfAddress(last);
    }
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    return clientOfAddress(incoming?.socket?.remoteAddress);
  };

  // Shared by every instance on the database (`options.shared`): one counter per limit.
  const shared = options.shared
    ? {
        anonymous: options.shared.counter('requests-anonymous', {
          ...windowOf(config.anonymous),
          claimMax: config.sharedClaimMax,
        }),
        authenticated: options.shared.counter('requests-authenticated', {
          ...windowOf(config.authenticated),
          claimMax: config.sharedClaimMax,
        }),
        failedAuth: options.shared.counter('failed-auth', windowOf(config.failedAuth)),
        // A key that authenticated from an address, remembered for a day (see the lock-out).
        trusted: options.shared.counter('trusted-keys', { points: 1, windowSeconds: 86_400 }),
      }
    : undefined;
  let lastStoreWarning = Number.NEGATIVE_INFINITY;

  return async (c, next) => {
    if (c.req.method === 'GET' && (c.req.path === '/health' || c.req.path === '/ready')) {
      return next();
    }
    const at = now();
    const client = clientOf(c);
    const authorization = c.req.header('authorization');
    const token = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
    let keyId = token === undefined ? undefined : keyIds.get(digestOf(token));
    if (keyId === undefined && authorization !== undefined && options.principal) {
      const principal = await options.principal(c);
      // Apart from the key names: a user named like a key never shares its bucket.
      if (principal !== undefined) keyId = `principal:${principal}`;
    }
    if (keyId !== undefined && options.endUserKeys?.includes(keyId)) {
      const user = c.req.header(END_USER_HEADER);
      if (user && user.length <= 256) keyId = `${keyId}/user:${user}`;
    }
    const state = clientState(client, at);
    const tooManyRequests = (wait: number) =>
      tooMany(
        wait,
        keyId === undefined
          ? 'Too many requests from this client'
          : keyId.startsWith('principal:') || keyId.includes('/user:')
            ? 'Too many requests from this user'
            : 'Too many requests with this key',
        'RATE_LIMITED',
      );
    const tooManyFailures = (wait: number) =>
      tooMany(wait, 'Too many failed authentications from this client', 'AUTH_RATE_LIMITED');

    if (shared) {
      let refusal: Response | undefined;
      let decided = false;
      try {
        // A key that authenticated from this address (on this instance) is never locked out
        // there, so its requests skip the look at the address's failures.
        const trustedHere = keyId !== undefined && state.trustedKeys?.has(keyId) === true;
        if (authorization !== undefined && !trustedHere) {
          const failures = await shared.failedAuth.peek(client);
          if (failures.used >= config.failedAuth.burst) {
            const trusted =
              keyId !== undefined && (await shared.trusted.peek(`${client}|${keyId}`)).used > 0;
            if (!trusted) refusal = tooManyFailures(failures.secondsLeft);
          }
        }
        if (!refusal) {
          const taken =
            keyId === undefined
              ? await shared.anonymous.take(client)
              : await shared.authenticated.take(keyId);
          if (!taken.taken) refusal = tooManyRequests(taken.secondsLeft);
        }
        decided = true;
      } catch (error) {
        // The store does not answer: this instance's own limits decide instead (see the README:
        // limits fail open to the per-instance budget, never to none).
        if (at - lastStoreWarning > 60_000) {
          lastStoreWarning = at;
          (c.var as { logger?: Logger }).logger?.warn(
            'shared rate limits unreachable: this instance limits on its own',
            { error },
          );
        }
      }
      if (decided) {
        if (refusal) return refusal;
        await next();
        if (authorization === undefined) return;
        try {
          if (c.res.status === 401) {
            await shared.failedAuth.take(client);
          } else if (keyId !== undefined && !state.trustedKeys?.has(keyId)) {
            await shared.trusted.take(`${client}|${keyId}`);
            state.trustedKeys ??= new Set();
            state.trustedKeys.add(keyId);
          }
        } catch {
          // Counted by this instance instead (the store is warned about above when it is down).
          afterLocally(state, c.res.status, keyId, at);
        }
        return;
      }
    }

    if (authorization !== undefined && state.failures && !state.failures.has(at)) {
      if (keyId === undefined || !state.trustedKeys?.has(keyId)) {
        return tooManyFailures(state.failures.wait(at));
      }
    }

    let bucket = state.requests;
    if (keyId !== undefined) {
      bucket = keyBuckets.get(keyId) ?? new TokenBucket(config.authenticated, at);
      if (!keyBuckets.has(keyId) && keyBuckets.size >= config.maxClients) {
        // Per-user buckets come and go: forget the oldest first, like addresses.
        const oldest = keyBuckets.keys().next().value;
        if (oldest !== undefined) keyBuckets.delete(oldest);
      }
      keyBuckets.set(keyId, bucket);
    }
    const wait = bucket.take(at);
    if (wait > 0) return tooManyRequests(wait);

    await next();

    if (authorization === undefined) return;
    afterLocally(state, c.res.status, keyId, at);
  };

  function afterLocally(state: ClientState, status: number, keyId: string | undefined, at: number) {
    if (status === 401) {
      state.failures ??= new TokenBucket(config.failedAuth, at);
      state.failures.take(at);
    } else if (keyId !== undefined) {
      state.trustedKeys ??= new Set();
      state.trustedKeys.add(keyId);
    }
  }
}

/** A bucket as the fixed window the shared store counts in: `burst` per `burst / rate` seconds. */
function windowOf(bucket: TokenRate): SharedLimitRule {
  return {
    points: bucket.burst,
    windowSeconds: Math.max(1, Math.ceil(bucket.burst / bucket.requestsPerSecond)),
  };
}

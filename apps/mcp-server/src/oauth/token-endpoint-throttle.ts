import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientOfAddress } from '@dcg/http-kit';
import { type FailureThrottle, failureThrottle } from './failure-throttle';

/**
 * Back-off for wrong client credentials at `/token`: oidc-provider answers them `401
 * invalid_client`; each such answer counts a failure of the client address (IPv6 by /64) and, for
 * `client_secret_basic`, of the client id named. Past the free failures a locked caller gets `429`
 * with `Retry-After` before oidc-provider hashes anything.
 *
 * @example
 * const guard = tokenEndpointThrottle();
 * if (await guard.refused(req, res)) return; // answered 429 (or 503)
 * void providerCallback(req, res);
 */
export function tokenEndpointThrottle(throttle: FailureThrottle = failureThrottle()) {
  return {
    /**
     * Answers 429 when the caller is locked, 503 when the back-off does not answer (fails closed:
     * no secret is checked then); else watches the answer and resolves false.
     */
    async refused(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      const keys = [`address:${clientOfAddress(req.socket.remoteAddress)}`];
      const client = basicClientId(req.headers.authorization);
      if (client !== undefined) keys.push(`client:${client}`);
      let wait: number;
      try {
        wait = await throttle.wait(keys);
      } catch {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' }).end(
          JSON.stringify({
            error: 'temporarily_unavailable',
            error_description: 'Client authentication is not possible right now; retry in 30 s',
          }),
        );
        return true;
      }
      if (wait > 0) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(wait) }).end(
          JSON.stringify({
            error: 'too_many_requests',
            error_description: `Too many failed client authentications; retry in ${wait} s`,
          }),
        );
        return true;
      }
      res.once('finish', () => {
        // The answer is sent already: a store failing just now only leaves this one uncounted.
        if (res.statusCode === 401) Promise.resolve(throttle.failed(keys)).catch(() => undefined);
        else if (res.statusCode === 200 && client !== undefined)
          Promise.resolve(throttle.succeeded([`client:${client}`])).catch(() => undefined);
      });
      return false;
    },
  };
}

function basicClientId(header: string | undefined): string | undefined {
  const match = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

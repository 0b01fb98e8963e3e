import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { ConfigError, isProduction } from '@dcg/http-kit';
// oidc-provider's own list of special-use addresses (private, loopback, link-local, documentation…),
// the one its SSRF guard refuses; not re-implemented here.
import { isSpecialUseIP } from 'oidc-provider/lib/helpers/fetch_request.js';
import type { McpServerConfig } from '../config';

type FetchSettings = McpServerConfig['oauth']['clientIdMetadataDocumentFetch'];
type OutgoingFetch = (url: string | URL, init: RequestInit) => Promise<Response>;

/**
 * The `fetch` oidc-provider uses for Client ID Metadata Documents (and any other document it
 * fetches). By default it is the platform's fetch behind oidc-provider's SSRF guard (no
 * special-use address, no redirects followed, oidc-provider's size cap), with the configured
 * timeout. With `trustedCaFile` or `allowLoopbackForTests` it fetches itself over node:https, with
 * the same guard checked on the connected socket (so no DNS answer sneaks past it), the extra CA
 * trusted beside the system's, and loopback addresses let through only when
 * `allowLoopbackForTests` is on, which start-up refuses under `NODE_ENV=production`.
 *
 * @example
 * const fetch = metadataDocumentFetch(config.oauth.clientIdMetadataDocumentFetch, process.env);
 */
export function metadataDocumentFetch(
  settings: FetchSettings,
  env: Record<string, string | undefined>,
): OutgoingFetch {
  if (settings.allowLoopbackForTests && isProduction(env)) {
    const message =
      'allowLoopbackForTests lets metadata documents be fetched from this host; it is for tests and refused in production (NODE_ENV other than development or test)';
    throw new ConfigError(
      `Invalid configuration:\n  - oauth.clientIdMetadataDocumentFetch.allowLoopbackForTests: ${message}`,
      [{ key: 'oauth.clientIdMetadataDocumentFetch.allowLoopbackForTests', message }],
    );
  }
  if (settings.trustedCaFile === undefined && !settings.allowLoopbackForTests) {
    // oidc-provider put its guarded dispatcher in `init`; only the deadline is ours.
    return (url, init) =>
      globalThis.fetch(url, { ...init, signal: AbortSignal.timeout(settings.timeoutMs) });
  }
  const ca =
    settings.trustedCaFile === undefined
      ? undefined
      : [...rootCertificates, readCertificates(settings.trustedCaFile)];
  const refused = (address: string | undefined) =>
    address === undefined ||
    (isSpecialUseIP(address) && !(settings.allowLoopbackForTests && isLoopback(address)));
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init.headers)),
        signal: AbortSignal.timeout(settings.timeoutMs),
        agent: false,
        ...(ca ? { ca } : {}),
      });
      request.once('socket', (socket: Socket) => {
        const check = () => {
          if (refused(socket.remoteAddress)) {
            socket.destroy(new Error('hostname resolves to a special-use IP address'));
          }
        };
        if (socket.remoteAddress !== undefined) check();
        else socket.once('connect', check);
      });
      request.once('response', (response) => {
        const status = response.statusCode ?? 502;
        // Redirects are answered as they are: oidc-provider accepts only a 200.
        const body = [204, 205, 304].includes(status)
          ? null
          : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
        if (body === null) response.resume();
        resolve(new Response(body, { status, headers: headersOf(response.headers) }));
      });
      request.once('error', reject);
      request.end();
    });
}

function readCertificates(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (cause) {
    const message = `cannot read ${file}: ${(cause as Error).message}`;
    throw new ConfigError(
      `Invalid configuration:\n  - oauth.clientIdMetadataDocumentFetch.trustedCaFile: ${message}`,
      [{ key: 'oauth.clientIdMetadataDocumentFetch.trustedCaFile', message }],
      { cause },
    );
  }
}

function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

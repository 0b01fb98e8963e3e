/// <reference path="./oidc-provider-fetch-request.d.ts" />
import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { rootCertificates } from 'node:tls';
import { ConfigError, isProduction } from '@dcg/http-kit';
// oidc-provider's own list of special-use addresses (private, loopback, link-local, documentation…),
// the one its SSRF guard refuses; not re-implemented here.
import { isSpecialUseIP } from 'oidc-provider/lib/helpers/fetch_request.js';
import type { McpServerConfig } from '../config';

type FetchSettings = McpServerConfig['oauth']['clientIdMetadataDocumentFetch'];
type OutgoingFetch = (url: string | URL, init: RequestInit) => Promise<Response>;

/** How long any answer about one document URL is reused: one fetch per `/authorize`, not two. */
export const METADATA_DOCUMENT_ANSWER_TTL_MS = 10_000;

/** The one answer of a refused document, whatever refused it (words that tell nothing). */
export const REFUSED_DOCUMENT_MESSAGE = 'the client_id metadata document could not be used';

type Answer =
  | { ok: true; status: number; headers: [string, string][]; body: Buffer }
  | { ok: false };

/**
 * The `fetch` oidc-provider uses for Client ID Metadata Documents (and the other documents it may
 * fetch, such as a registered client's `jwks_uri`). No probing through it:
 *
 * - every address of the host is resolved and checked before any connection (none may be
 *   special-use; loopback only with `allowLoopbackForTests`, which start-up refuses under
 *   `NODE_ENV=production`), and the connection goes to the checked address (no second lookup a
 *   rebinding DNS could answer differently); the connected socket is checked again;
 * - a refused document (an address refused, no connection, no answer in time, a status other than
 *   200) is answered after the full `timeoutMs` and
 *   as the same failure, so neither time nor words tell an open port from a closed one;
 * - one answer per URL is reused for {@link METADATA_DOCUMENT_ANSWER_TTL_MS} (and concurrent asks
 *   share one fetch): oidc-provider caches good documents by their `Cache-Control`, and a failing
 *   one is fetched once per `/authorize`, not once per lookup of the client;
 * - redirects are never followed (answered as refusals), bodies are read up to `maxBytes` + 1
 *   (oidc-provider refuses the larger), and `trustedCaFile` adds a CA beside the system's.
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
  const ca =
    settings.trustedCaFile === undefined
      ? undefined
      : [...rootCertificates, readCertificates(settings.trustedCaFile)];
  const allowed = (address: string | undefined) => {
    const plain = address === undefined ? undefined : unmapped(address);
    return (
      plain !== undefined &&
      (!isSpecialUseIP(plain) || (settings.allowLoopbackForTests && isLoopback(plain)))
    );
  };

  const fetchOnce = async (url: string): Promise<Answer> => {
    const deadline = Date.now() + settings.timeoutMs;
    try {
      const answer = await fetchChecked(url, { settings, ca, allowed, deadline });
      // Only a 200 is a document (oidc-provider refuses anything else): everything else is
      // answered as one refusal, so a 404 of a live port reads like a closed one.
      if (answer.status === 200) return answer;
    } catch {
      // Answered below, like every other refusal.
    }
    await sleep(Math.max(0, deadline - Date.now()));
    return { ok: false };
  };

  const recent = new Map<string, { until: number; answer: Promise<Answer> }>();
  return async (url) => {
    const key = String(url);
    const now = Date.now();
    let entry = recent.get(key);
    if (!entry || entry.until <= now) {
      if (recent.size >= 1_000) {
        for (const [k, e] of recent) if (e.until <= now) recent.delete(k);
        if (recent.size >= 1_000) recent.clear();
      }
      const answer = fetchOnce(key);
      const fresh = { until: Number.POSITIVE_INFINITY, answer };
      entry = fresh;
      recent.set(key, fresh);
      void answer.then(() => {
        fresh.until = Date.now() + METADATA_DOCUMENT_ANSWER_TTL_MS;
      });
    }
    const answer = await entry.answer;
    if (!answer.ok) throw new Error(REFUSED_DOCUMENT_MESSAGE);
    return new Response(new Uint8Array(answer.body), {
      status: answer.status,
      headers: answer.headers,
    });
  };
}

/** Resolves, checks every address, connects to a checked one, and reads at most maxBytes + 1. */
async function fetchChecked(
  url: string,
  context: {
    settings: FetchSettings;
    ca: string[] | undefined;
    allowed: (address: string | undefined) => boolean;
    deadline: number;
  },
): Promise<Extract<Answer, { ok: true }>> {
  const { settings, ca, allowed, deadline } = context;
  const target = new URL(url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error('scheme');
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await withDeadline(lookup(host, { all: true, verbatim: true }), deadline);
  if (addresses.length === 0 || !addresses.every((a) => allowed(a.address))) {
    throw new Error('special-use address');
  }
  const pinned = addresses[0]!;
  const pinnedLookup = ((_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
  return new Promise((resolve, reject) => {
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
      method: 'GET',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      agent: false,
      lookup: pinnedLookup,
      ...(ca ? { ca } : {}),
    });
    request.once('socket', (socket: Socket) => {
      const check = () => {
        if (!allowed(socket.remoteAddress)) socket.destroy(new Error('special-use address'));
      };
      if (socket.remoteAddress !== undefined) check();
      else socket.once('connect', check);
    });
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size > settings.maxBytes) return;
        chunks.push(chunk);
        size += chunk.length;
        // One byte over is enough for oidc-provider to refuse it; read no more.
        if (size > settings.maxBytes) response.destroy();
      });
      const done = () =>
        resolve({
          ok: true,
          status: response.statusCode ?? 502,
          headers: headersOf(response.headers),
          body: Buffer.concat(chunks).subarray(0, settings.maxBytes + 1),
        });
      response.once('end', done);
      response.once('close', () => (size > settings.maxBytes ? done() : undefined));
      response.once('error', (error) => (size > settings.maxBytes ? done() : reject(error)));
    });
    request.once('error', reject);
    request.end();
  });
}

function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  return Promise.race([
    promise,
    sleep(Math.max(0, deadline - Date.now())).then(() => {
      throw new Error('timeout');
    }),
  ]);
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

/**
 * The IPv4 address an IPv4-mapped or -compatible IPv6 address stands for (`::ffff:7f00:1`, as URL
 * parsing writes `[::ffff:127.0.0.1]`, is 127.0.0.1, which oidc-provider's list misses in that
 * spelling); other addresses as they are; undefined for a spelling not understood (refused).
 */
export function unmapped(address: string): string | undefined {
  if (isIP(address) !== 6) return isIP(address) === 4 ? address : undefined;
  const lower = address.toLowerCase();
  const dotted = /^::(?:ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted) return dotted[1];
  if (lower.includes('.')) return undefined;
  const [head = '', tail = ''] = lower.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = lower.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  const values = groups.map((g) => Number.parseInt(g, 16));
  const prefixZero = values.slice(0, 5).every((v) => v === 0);
  if (
    prefixZero &&
    // Mapped (::ffff:a.b.c.d), or compatible (::a.b.c.d) but not :: and ::1 themselves.
    (values[5] === 0xffff || (values[5] === 0 && (values[6] !== 0 || (values[7] ?? 0) > 1)))
  ) {
    const [high = 0, low = 0] = values.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return lower;
}

function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

function headersOf(raw: IncomingHttpHeaders): [string, string][] {
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push([name, one]);
  }
  return headers;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, ServiceMetrics } from '@dcg/http-kit';
import { parsePrometheusText } from '@dcg/http-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessMcpServer, inProcessMcpServer } from './__fixtures__/in-process.testkit';
import { CookieBrowser, formOf, pkce, postForm } from './__fixtures__/oauth-client.testkit';
import {
  authorizationCode,
  authorizationUrl,
  registerClient,
  tokenRequest,
} from './__fixtures__/oauth-steps.testkit';

// The OAuth metrics an operator reads, driven by real sign-ins and token requests: sign-ins by
// outcome, OAuth errors by endpoint and code, and reused codes and refresh tokens (answered
// invalid_grant, the grant revoked), whether oidc-provider or the store noticed the reuse.

const REDIRECT = 'http://127.0.0.1:40000/cb';

describe('mcp-server OAuth metrics', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-oauth-metrics-'));
  const metrics = new ServiceMetrics({ service: 'mcp-server', processMetrics: false });
  let server: InProcessMcpServer;
  let clientId: string;
  let password: string;

  beforeAll(async () => {
    server = await inProcessMcpServer({
      dataDir: dir,
      demo: true,
      config: {
        governance: { baseUrl: 'http://127.0.0.1:9' },
        knowledgeGraph: { baseUrl: 'http://127.0.0.1:9' },
        // Concurrent token requests are part of the point; the limits have their own tests.
        rateLimit: { enabled: false },
      },
      logger: createLogger('test', { level: 'silent' }),
      metrics,
    });
    password = server.demoUser!.password;
    ({ client_id: clientId } = await registerClient(server, {
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      application_type: 'native',
    }));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const scrape = async () => parsePrometheusText(await metrics.registry.metrics()).samples;
  const sampleOf = async (name: string, labels: Record<string, string>) =>
    (await scrape()).find(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    )?.value;

  /** Signs in (after `wrongFirst` wrong passwords) where asked, consents; answers a fresh code. */
  const code = (browser: CookieBrowser, wrongFirst = 0) =>
    authorizationCode(browser, server.url, {
      clientId,
      redirectUri: REDIRECT,
      scope: 'marketplace:read offline_access',
      resource: server.mcpUrl,
      state: 's',
      username: 'demo',
      password,
      wrongPasswordsFirst: wrongFirst,
    });
  const token = async (form: Record<string, string>) => {
    const response = await tokenRequest(server, { client_id: clientId, ...form });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };
  const exchange = (grant: { code: string; verifier: string }) =>
    token({
      grant_type: 'authorization_code',
      code: grant.code,
      redirect_uri: REDIRECT,
      code_verifier: grant.verifier,
    });

  it('counts every outcome from zero before any sign-in or reuse', async () => {
    for (const outcome of ['success', 'wrong_credentials', 'throttled', 'unavailable'])
      expect(await sampleOf('mcp_oauth_logins_total', { outcome }), outcome).toBe(0);
    for (const credential of ['authorization_code', 'refresh_token'])
      expect(await sampleOf('mcp_oauth_reuse_detected_total', { credential })).toBe(0);
  });

  it('counts sign-ins by outcome, and reused codes and refresh tokens by credential', async () => {
    const browser = new CookieBrowser(server.fetch);
    // A wrong password, then the right one: one failure, one success.
    const first = await code(browser, 1);
    expect(await sampleOf('mcp_oauth_logins_total', { outcome: 'wrong_credentials' })).toBe(1);
    expect(await sampleOf('mcp_oauth_logins_total', { outcome: 'success' })).toBe(1);

    // A code used twice, one after the other: oidc-provider finds it consumed.
    expect((await exchange(first)).status).toBe(200);
    expect(await exchange(first)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(
      await sampleOf('mcp_oauth_reuse_detected_total', { credential: 'authorization_code' }),
    ).toBe(1);

    // A refresh token used after its rotation.
    const tokens = await exchange(await code(browser));
    expect(tokens.status).toBe(200);
    const refresh = () =>
      token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token! });
    expect((await refresh()).status).toBe(200);
    expect(await refresh()).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await sampleOf('mcp_oauth_reuse_detected_total', { credential: 'refresh_token' })).toBe(
      1,
    );

    // One code sent four times at once: exactly one wins; the reuse is noticed (by oidc-provider
    // or by the store's single atomic consume) and the grant revoked, after which a late loser
    // finds no code at all. So: one to three reuses, and four invalid_grant answers in all.
    const grant = await code(browser);
    const answers = await Promise.all(Array.from({ length: 4 }, () => exchange(grant)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 200))
      expect(lost).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const codeReuses =
      (await sampleOf('mcp_oauth_reuse_detected_total', { credential: 'authorization_code' })) ?? 0;
    expect(codeReuses).toBeGreaterThanOrEqual(2);
    expect(codeReuses).toBeLessThanOrEqual(4);
    // Every invalid_grant of the token endpoint (oidc-provider's `grant` event): 2 + 3.
    expect(
      await sampleOf('mcp_oauth_errors_total', { endpoint: 'grant', code: 'invalid_grant' }),
    ).toBe(5);
  });

  it('counts sign-ins refused by the back-off of failed sign-ins as throttled', async () => {
    const browser = new CookieBrowser(server.fetch);
    const url = authorizationUrl(server.url, {
      clientId,
      redirectUri: REDIRECT,
      challenge: pkce().challenge,
    });
    let html = await (await browser.follow(url, {}, REDIRECT)).response!.text();
    const statuses: number[] = [];
    for (let i = 0; i < 8 && !statuses.includes(429); i++) {
      const form = formOf(html, 'login');
      const answer = await postForm(
        browser,
        server.url,
        form.action,
        { csrf: form.csrf, username: 'demo', password: 'wrong' },
        REDIRECT,
      );
      statuses.push(answer.response!.status);
      html = await answer.response!.text();
    }
    expect(statuses.at(-1)).toBe(429);
    const throttled = statuses.filter((s) => s === 429).length;
    const wrong = statuses.filter((s) => s === 401).length;
    expect(await sampleOf('mcp_oauth_logins_total', { outcome: 'throttled' })).toBe(throttled);
    expect(await sampleOf('mcp_oauth_logins_total', { outcome: 'wrong_credentials' })).toBe(
      1 + wrong,
    );
    expect(await sampleOf('mcp_oauth_logins_total', { outcome: 'success' })).toBe(1);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import {
  chromiumAvailable,
  launchChromium,
  PAGE_WIDTHS,
  saveScreenshot,
  seriousAxeViolations,
} from '@dcg/testing-browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkce } from './__fixtures__/oauth-client.testkit';
import { type RunningMcpServer, startMcpServer } from './server';

describe.skipIf(!chromiumAvailable('mcp-server login pages'))(
  'login and consent pages in headless Chromium',
  () => {
    let server: RunningMcpServer;
    let dir: string;
    let browser: Browser;
    let callbackServer: Server;
    let REDIRECT: string;

    beforeAll(async () => {
      // The client's redirect URI: a page of its own, as a real client has.
      callbackServer = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/plain' }).end('client callback'),
      );
      await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
      REDIRECT = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
      dir = mkdtempSync(join(tmpdir(), 'mcp-server-browser-'));
      server = await startMcpServer({
        dataDir: dir,
        demo: true,
        config: {
          oauth: {
            clients: [
              {
                client_id: 'browser-test',
                client_name: 'Browser Test Client',
                redirect_uris: [REDIRECT],
              },
            ],
          },
        },
        logger: createLogger('test', { level: 'silent' }),
      });
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      callbackServer?.close();
      await server?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const authorizationUrl = (challenge: string) =>
      `${server.url}/authorize?${new URLSearchParams({
        client_id: 'browser-test',
        response_type: 'code',
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope: 'marketplace:read kg:read',
        resource: server.mcpUrl,
        state: 'browser-state',
      })}`;

    it('a user signs in, sees the consent with client, scopes and resource, approves, and the client gets its code', async () => {
      const page = await browser.newPage();
      const { verifier, challenge } = pkce();
      await page.goto(authorizationUrl(challenge));
      expect(await page.locator('h1').textContent()).toBe('Sign in');
      expect(await page.locator('body').textContent()).toMatch(/Browser Test Client/);
      await page.fill('input[name=username]', server.demoUser!.username);
      await page.fill('input[name=password]', 'wrong password');
      await page.click('button[type=submit]:has-text("Sign in")');
      expect(await page.locator('[role=alert]').textContent()).toMatch(
        /Wrong user name or password/,
      );
      await page.fill('input[name=password]', server.demoUser!.password);
      await page.click('button[type=submit]:has-text("Sign in")');
      await page.waitForSelector('h1:has-text("Allow access?")');
      const consent = (await page.locator('body').textContent()) ?? '';
      expect(consent).toMatch(/Browser Test Client/);
      expect(consent).toMatch(/marketplace:read/);
      expect(consent).toMatch(/kg:read/);
      expect(consent).toContain(server.mcpUrl);
      expect(consent).toMatch(/as demo/);
      await Promise.all([page.waitForURL(`${REDIRECT}**`), page.click('button:has-text("Allow")')]);
      const callback = new URL(page.url());
      expect(callback.searchParams.get('state')).toBe('browser-state');
      expect(callback.searchParams.get('iss')).toBe(new URL(server.url).origin);
      const token = await fetch(`${server.url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code')!,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
          client_id: 'browser-test',
        }),
      });
      expect(token.status).toBe(200);
      expect(await token.json()).toMatchObject({
        token_type: 'Bearer',
        scope: 'marketplace:read kg:read',
      });
      await page.close();
    });

    for (const size of PAGE_WIDTHS) {
      it(`sign-in, wrong password, consent and a bad redirect_uri: same shell, 0 serious axe violations at ${size.width} px`, async () => {
        const context = await browser.newContext({
          viewport: { width: size.width, height: size.height },
        });
        const page = await context.newPage();
        const found: Record<string, unknown> = {};
        const check = async (name: string) => {
          expect(await page.locator('html').getAttribute('lang'), name).toBe('en');
          expect(await page.locator('main').count(), name).toBe(1);
          // The same header as the marketplace pages (the shared page shell of @dcg/http-kit).
          expect(await page.locator('header.site-header').count(), name).toBe(1);
          const violations = await seriousAxeViolations(page);
          if (violations.length > 0) found[name] = violations;
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${name} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
          await saveScreenshot(page, `mcp-${name}-${size.width}`);
        };
        await page.goto(authorizationUrl(pkce().challenge));
        await check('login');
        await page.fill('input[name=username]', server.demoUser!.username);
        await page.fill('input[name=password]', 'wrong password');
        await page.click('button[type=submit]:has-text("Sign in")');
        await page.waitForSelector('[role=alert]');
        // The client's name and the way out stay after a wrong password.
        expect(await page.locator('main').textContent()).toMatch(/Browser Test Client/);
        expect(await page.locator('button:has-text("Deny")').count()).toBe(1);
        await check('login-wrong-password');
        await page.fill('input[name=password]', server.demoUser!.password);
        await page.click('button[type=submit]:has-text("Sign in")');
        await page.waitForSelector('h1:has-text("Allow access?")');
        await check('consent');
        await page.goto(
          authorizationUrl(pkce().challenge).replace(
            encodeURIComponent(REDIRECT),
            encodeURIComponent('https://attacker.example/cb'),
          ),
        );
        expect(await page.locator('h1').textContent()).toBe('Authorization error');
        await check('error-redirect-uri');
        expect(found).toEqual({});
        await context.close();
      }, 120_000);
    }

    it('a cross-site form posting to the login page is refused (CSRF)', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(authorizationUrl(pkce().challenge));
      const action = await page.locator('form').first().getAttribute('action');
      expect(action).toMatch(/^\/interaction\/[^/]+\/login$/);
      // Another site's page (here about:blank, Origin "null") submits the same form in the same browser.
      const attacker = await context.newPage();
      await attacker.setContent(
        `<form method="post" action="${server.url}${action}"><input name="csrf" value="guess"><input name="username" value="demo"><input name="password" value="x"><button>go</button></form>`,
      );
      const [response] = await Promise.all([
        attacker.waitForNavigation(),
        attacker.click('button'),
      ]);
      expect(response?.status()).toBe(403);
      expect(await attacker.locator('body').textContent()).toMatch(
        /must be sent from this server|CSRF/,
      );
      await context.close();
    });
  },
);

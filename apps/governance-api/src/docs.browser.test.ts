import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { chromiumAvailable, launchChromium } from '@dcg/testing-browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from './__fixtures__/test-keys';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

// The API reference under its content security policy: rendered on the server, no script, its one
// inline stylesheet allowed by hash and applied, nothing blocked.
describe.skipIf(!chromiumAvailable('governance-api API reference'))(
  'the API reference page in a browser',
  () => {
    let api: RunningGovernanceApi;
    let browser: Browser;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'governance-docs-'));
      api = await startGovernanceApi({
        config: testConfig,
        dataDir,
        logger: createLogger('docs-browser-test', { level: 'silent' }),
      });
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await api?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('renders every operation of the OpenAPI document with no blocked resource', async () => {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('response', (r) => {
        if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
      });
      const response = await page.goto(`${api.url}/docs`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).not.toContain('script-src');
      const document = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const operations = Object.values(document.paths).reduce(
        (sum, methods) => sum + Object.keys(methods).length,
        0,
      );
      expect(await page.locator('section.operation').count()).toBe(operations);
      // Each operation shows an example of at least one answer.
      expect(await page.locator('section.operation:not(:has(pre))').count()).toBe(0);
      expect(await page.locator('h1').textContent()).toContain('dcg governance-api');
      // Styles applied (the CSP hash matches): an operation is a bordered card.
      const border = await page
        .locator('section.operation')
        .first()
        .evaluate((el) => getComputedStyle(el).borderTopStyle);
      expect(border).toBe('solid');
      // The table of contents leads to each operation.
      const first = await page.locator('nav.toc a').first().getAttribute('href');
      expect(await page.locator(first ?? '#none').count()).toBe(1);
      expect(problems).toEqual([]);
      await page.close();
    });
  },
);

import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { createLogger } from '@dcg/http-kit';
import { generateMarketplace } from '@dcg/marketplace-search/testing';
import { chromiumAvailable, launchChromium } from '@dcg/testing-browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGovernanceApi, startGovernanceApi } from '../server';
import { pngSize } from './__fixtures__/png-size';

// The list page with the search box and paging, in headless Chromium, with the local embedder.
describe.skipIf(!chromiumAvailable('governance-api marketplace search page'))(
  'marketplace list page: search and paging in Chromium',
  () => {
    let api: RunningGovernanceApi;
    let browser: Browser;
    let page: Page;
    let dir: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'dcg-search-web-'));
      const dataDir = join(dir, 'data');
      await mkdir(dataDir, { recursive: true });
      const store = await openSqliteStore({ file: join(dataDir, 'governance.db') });
      for (const instance of generateMarketplace({ environment: 'production', count: 48 })) {
        await store.putInstance({ ...instance, planId: 'seed' });
      }
      await store.close();
      api = await startGovernanceApi({
        dataDir,
        logger: createLogger('test', { level: 'silent' }),
      });
      await api.marketplaceSearch.idle();
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    });
    afterAll(async () => {
      await browser?.close();
      await api?.close();
      await rm(dir, { recursive: true, force: true });
    });

    async function screenshot(name: string): Promise<void> {
      const file = join(dir, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      const size = pngSize(await readFile(file));
      expect(size?.width).toBe(1100);
      // One page of 20 cards, not a page of every instance.
      expect(size?.height).toBeLessThan(12_000);
      if (process.env.DCG_KEEP_SCREENSHOTS) {
        await copyFile(file, join(process.env.DCG_KEEP_SCREENSHOTS, `search-${name}.png`));
      }
    }

    it('pages the list and searches by meaning from the search box', async () => {
      await page.goto(`${api.url}/marketplace`);
      await expect(page.locator('[role=status]').textContent()).resolves.toBe(
        '48 instances in all environments',
      );
      expect(await page.locator('ul.instances > li').count()).toBe(20);
      await expect(page.locator('nav.pages').textContent()).resolves.toContain('Page 1 of 3');
      await screenshot('list-page-1');
      await page.click('a[rel=next]');
      await expect(page.locator('nav.pages').textContent()).resolves.toContain('Page 2 of 3');

      await page.fill('#q', 'currency conversion');
      await page.selectOption('#environment', 'production');
      await page.click('.filter button[type=submit]');
      expect(page.url()).toContain('q=currency+conversion');
      const first = page.locator('ul.instances > li').first();
      await expect(first.locator('h2').textContent()).resolves.toMatch(/^Exchange Rates/);
      await expect(first.locator('.match').textContent()).resolves.toMatch(/close in meaning/i);
      await screenshot('search-hits');

      // A URN finds its instance first.
      await page.fill('#q', 'urn:dmb:dp:sales:quotes-online:0');
      await page.click('.filter button[type=submit]');
      await expect(page.locator('ul.instances > li h2').first().textContent()).resolves.toBe(
        'Quotations Online',
      );
      await expect(
        page.locator('ul.instances > li .match').first().textContent(),
      ).resolves.toContain('Its URN is the query');
      await screenshot('search-urn');
    });
  },
);

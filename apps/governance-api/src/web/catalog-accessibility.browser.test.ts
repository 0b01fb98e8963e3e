import { createGovernance, type Governance } from '@dcg/governance';
import { openSqliteStore } from '@dcg/governance/sqlite';
import { createLogger, type RunningServer, startHttpServer } from '@dcg/http-kit';
import {
  chromiumAvailable,
  launchChromium,
  PAGE_WIDTHS,
  saveScreenshot,
  seriousAxeViolations,
} from '@dcg/testing-browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGovernanceApp } from '../app';
import { ORDERS, POLICY, SHOP, seedCatalog, UNGUARDED } from './__fixtures__/catalog-seed';

/**
 * Every kind of marketplace page and the API reference, served by the real app over a real store,
 * in Chromium at a laptop's and a phone's width: no serious or critical axe violation, nothing
 * wider than the window, and a screenshot of each in `.test-results/screenshots/`.
 */
describe.skipIf(!chromiumAvailable('marketplace catalog pages with axe'))(
  'marketplace and /docs in Chromium: axe and screenshots at 1280 and 390 px',
  () => {
    let governance: Governance;
    let server: RunningServer;
    let browser: Browser;
    let firstSeq = 0;

    beforeAll(async () => {
      governance = createGovernance(await openSqliteStore({ file: ':memory:' }));
      ({ firstSeq } = await seedCatalog(governance));
      const app = buildGovernanceApp({
        governance,
        apiKeys: [],
        logger: createLogger('test', { level: 'silent' }),
        maxBodyBytes: 1_048_576,
      });
      server = await startHttpServer(app, { port: 0 });
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await governance?.store.close();
    });

    const contract = (id: string) => encodeURIComponent(id);
    const pages = () => [
      { name: 'list', path: '/marketplace' },
      { name: 'list-violated', path: '/marketplace?compliance=violated' },
      { name: 'system', path: `/marketplace/systems/${contract(SHOP)}?environment=production` },
      {
        name: 'contract-violated',
        path: `/marketplace/data-contracts/${contract(ORDERS)}?environment=production`,
      },
      {
        name: 'contract-unguarded',
        path: `/marketplace/data-contracts/${contract(UNGUARDED)}?environment=production`,
      },
      {
        name: 'history',
        path: `/marketplace/data-contracts/${contract(ORDERS)}/history?environment=production`,
      },
      {
        name: 'result',
        path: `/marketplace/data-contracts/${contract(ORDERS)}/results/${firstSeq}?environment=production`,
      },
      { name: 'policy', path: `/marketplace/policies/${POLICY}` },
      { name: 'how-search-ranks', path: '/marketplace/how-search-ranks' },
      { name: 'docs', path: '/docs' },
    ];

    for (const size of PAGE_WIDTHS) {
      it(`has no serious or critical axe violation at ${size.width} px`, async () => {
        const context = await browser.newContext({
          viewport: { width: size.width, height: size.height },
        });
        const page = await context.newPage();
        const found: Record<string, unknown> = {};
        for (const { name, path } of pages()) {
          const response = await page.goto(`${server.url}${path}`);
          expect(response?.status(), path).toBe(200);
          expect(await page.locator('main').count(), path).toBe(1);
          const violations = await seriousAxeViolations(page);
          if (violations.length > 0) found[name] = violations;
          // Nothing scrolls sideways: the document is no wider than the window.
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${path} overflows by ${overflow}px`).toBeLessThanOrEqual(0);
          // The reference is some 50 000 px long: a window's worth of it, and one operation below.
          await saveScreenshot(page, `governance-${name}-${size.width}`, {
            fullPage: name !== 'docs',
          });
        }
        await page.goto(`${server.url}/docs#op-getMarketplaceInstance`);
        await saveScreenshot(page, `governance-docs-operation-${size.width}`, { fullPage: false });
        expect(found).toEqual({});
        await context.close();
      }, 180_000);
    }
  },
);

import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHROMIUM_PATH, chromiumAvailable, launchChromium } from './chromium';

const installed = existsSync(CHROMIUM_PATH);

describe('chromiumAvailable', () => {
  afterEach(() => vi.unstubAllEnvs());

  it.runIf(installed)('launches the installed Chromium and renders a page', async () => {
    expect(chromiumAvailable('this test')).toBe(true);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.setContent('<main><h1>dcg</h1></main>');
      expect(await page.textContent('h1')).toBe('dcg');
    } finally {
      await browser.close();
    }
  });

  it.skipIf(installed)('fails instead of skipping when the run requires a browser', () => {
    vi.stubEnv('DCG_REQUIRE_BROWSER', '1');
    expect(() => chromiumAvailable('this test')).toThrow(/required/);
    vi.stubEnv('DCG_REQUIRE_BROWSER', '');
    vi.stubEnv('CI', 'true');
    expect(() => chromiumAvailable('this test')).toThrow(/required/);
    vi.stubEnv('CI', '');
    expect(chromiumAvailable('this test')).toBe(false);
  });
});

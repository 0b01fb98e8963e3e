import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHROMIUM_PATH, chromiumAvailable, launchChromium } from './chromium';

const missing = '/nonexistent/chromium';

describe('chromiumAvailable', () => {
  afterEach(() => vi.unstubAllEnvs());

  it.runIf(existsSync(CHROMIUM_PATH))(
    'launches the installed Chromium and renders a page',
    async () => {
      expect(chromiumAvailable('this test')).toBe(true);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.setContent('<main><h1>dcg</h1></main>');
        expect(await page.textContent('h1')).toBe('dcg');
      } finally {
        await browser.close();
      }
    },
  );

  it('skips visibly when Chromium is missing and the run does not require it', () => {
    vi.stubEnv('DCG_REQUIRE_BROWSER', undefined);
    vi.stubEnv('CI', undefined);
    expect(chromiumAvailable('this test', missing)).toBe(false);
  });

  it.each([
    { DCG_REQUIRE_BROWSER: '1', CI: undefined },
    { DCG_REQUIRE_BROWSER: undefined, CI: 'true' },
  ])('fails instead of skipping when the run requires a browser (%o)', (env) => {
    vi.stubEnv('DCG_REQUIRE_BROWSER', env.DCG_REQUIRE_BROWSER);
    vi.stubEnv('CI', env.CI);
    expect(() => chromiumAvailable('this test', missing)).toThrow(/required/);
  });
});

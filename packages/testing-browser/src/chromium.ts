import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); `scripts/ensure-system.sh` installs it. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags the project's browser tests run Chromium with. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];

/**
 * Whether the browser tests can run here. When Chromium is missing they skip with a visible
 * message, unless the run requires it (`DCG_REQUIRE_BROWSER=1` or `CI=true`): then a missing
 * browser is a failure, so CI can never pass by skipping its browser tests.
 *
 * @example
 * describe.skipIf(!chromiumAvailable('login pages'))('login pages in Chromium', () => { ... });
 */
export function chromiumAvailable(suite: string, path: string = CHROMIUM_PATH): boolean {
  if (existsSync(path)) return true;
  if (process.env.DCG_REQUIRE_BROWSER === '1' || process.env.CI === 'true') {
    throw new Error(
      `${suite}: Chromium is required here (DCG_REQUIRE_BROWSER=1 or CI=true) but ${path} is missing; run scripts/ensure-system.sh`,
    );
  }
  console.warn(`SKIPPED: ${suite}, ${path} is not installed (apt-get install chromium)`);
  return false;
}

/** Starts headless Chromium with the project's flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

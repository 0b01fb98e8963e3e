import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from './accessibility';
import { chromiumAvailable, launchChromium } from './chromium';

describe.skipIf(!chromiumAvailable('axe-core checks'))('seriousAxeViolations', () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('finds a missing lang and an unlabelled select, and passes a page that has neither', async () => {
    const page = await browser.newPage();
    await page.setContent(
      '<!doctype html><html><head><title>t</title></head><body><main><h1>Bad</h1><select><option>a</option></select></main></body></html>',
    );
    const bad = await seriousAxeViolations(page);
    expect(bad.map((v) => v.id).sort()).toEqual(['html-has-lang', 'select-name']);
    expect(bad.every((v) => v.impact === 'serious' || v.impact === 'critical')).toBe(true);
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>Good</h1><label for="s">Choice</label><select id="s"><option>a</option></select></main></body></html>',
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });

  it('runs on a page whose policy allows no script', async () => {
    const page = await browser.newPage();
    await page.route('http://csp.test/', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/html', 'content-security-policy': "default-src 'none'" },
        body: '<!doctype html><html><head><title>t</title></head><body><main><h1>x</h1></main></body></html>',
      }),
    );
    await page.goto('http://csp.test/');
    expect((await seriousAxeViolations(page)).map((v) => v.id)).toEqual(['html-has-lang']);
    await page.close();
  });
});

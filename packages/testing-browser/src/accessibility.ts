import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/** One axe-core rule a page breaks, with the elements that break it. */
export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[]; html: string; failureSummary?: string }>;
}

/** The impacts a page must have none of. */
export const BLOCKING_IMPACTS: ReadonlySet<string> = new Set(['serious', 'critical']);

/**
 * Runs axe-core (WCAG 2.0–2.2 A and AA rules and best practices) on the page as it is now and
 * answers the serious and critical violations. axe is evaluated through the DevTools protocol, so
 * a page whose Content-Security-Policy allows no script is checked as served.
 *
 * @example
 * expect(await seriousAxeViolations(page)).toEqual([]);
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate(
    `(() => { if (!window.axe) { ${axeSource}\n } return typeof window.axe; })()`,
  );
  if (loaded !== 'object') throw new Error(`axe-core did not load in the page (${String(loaded)})`);
  const violations = (await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe-core's global in the page
    const axe = (window as any).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(
      (v: AxeViolation) =>
        ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          helpUrl: v.helpUrl,
          nodes: v.nodes.map((n) => ({
            target: n.target,
            html: n.html,
            ...(n.failureSummary ? { failureSummary: n.failureSummary } : {}),
          })),
        }) satisfies AxeViolation,
    );
  })) as AxeViolation[];
  return violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''));
}

/** The folder of the screenshots of the browser tests: `.test-results/screenshots` of the repository (gitignored). */
export const SCREENSHOT_DIR = join(
  fileURLToPath(new URL('../../..', import.meta.url)),
  '.test-results',
  'screenshots',
);

/**
 * Saves a screenshot (the full page unless `fullPage: false`) as `<SCREENSHOT_DIR>/<name>.png`
 * and answers its path.
 *
 * @example
 * const file = await saveScreenshot(page, 'marketplace-list-390');
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name.replace(/[^A-Za-z0-9_.-]/g, '-')}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

/** The two widths every page is checked at: a laptop and a phone. */
export const PAGE_WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

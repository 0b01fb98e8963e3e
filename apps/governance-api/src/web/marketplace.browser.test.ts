import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import { chromiumAvailable, launchChromium } from '@dcg/testing-browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGovernanceApi, startGovernanceApi } from '../server';
import { startGuardianTechAdapter } from './__fixtures__/guardian-tech-adapter';
import { pngSize } from './__fixtures__/png-size';

const ENVIRONMENT = 'production';
const SYSTEM_ID = 'urn:dmb:dp:sales:shop:0';
const CONTRACTS = {
  compliant: 'urn:dmb:cmp:sales:shop:0:customers-port',
  violated: 'urn:dmb:cmp:sales:shop:0:orders-port',
  unprocessable: 'urn:dmb:cmp:sales:shop:0:returns-port',
  distributed: 'urn:dmb:cmp:sales:shop:0:invoices-port',
  // Deployed, but no guardian has reported on it yet.
  unknown: 'urn:dmb:cmp:sales:shop:0:refunds-port',
} as const;
// A subcomponent with its own specification (rule A5, distributed definition): its records come
// under its URN beside `root`.
const EU_VIEW = 'urn:dmb:cmp:sales:shop:0:invoices-port:eu';
const KEYS = {
  admin: 'admin-key-for-browser-tests',
  coordinator: 'coordinator-key-for-browser-tests',
  guardian: 'guardian-key-for-browser-tests',
};

const outputPort = (id: string, name: string) => ({
  id,
  name,
  kind: 'outputport',
  consumable: true,
  __dataContractEnabled: true,
  infrastructureTemplateId: 'urn:dmb:itm:browser-test-outputport:1',
  dataContract: { schema: [{ name: 'id', dataType: 'string', constraint: 'PRIMARY_KEY' }] },
});

const system = {
  id: SYSTEM_ID,
  name: 'Shop',
  kind: 'dataproduct',
  domain: 'sales',
  version: '1.2.0',
  components: [
    outputPort(CONTRACTS.compliant, 'Customers'),
    outputPort(CONTRACTS.violated, 'Orders'),
    outputPort(CONTRACTS.unprocessable, 'Returns'),
    outputPort(CONTRACTS.unknown, 'Refunds'),
    {
      ...outputPort(CONTRACTS.distributed, 'Invoices'),
      components: [
        {
          id: EU_VIEW,
          name: 'Invoices EU',
          kind: 'outputport',
          consumable: true,
          dataContract: { schema: [{ name: 'vat_id', dataType: 'string' }] },
        },
      ],
    },
    {
      id: 'urn:dmb:cmp:sales:shop:0:guardian',
      name: 'Shop guardian',
      kind: 'workload',
      infrastructureTemplateId: 'urn:dmb:itm:browser-test-guardian:1',
      __dataContractGuardianSpec: {
        guards: Object.values(CONTRACTS).map((dataContractId) => ({ dataContractId })),
      },
    },
  ],
};

const results = {
  compliant: {
    satisfiesPolicy: true,
    details: {
      results: {
        root: [
          {
            key: 'schema',
            name: 'Schema',
            children: [
              { key: 'id_unique', name: 'id is unique', compliant: true },
              { key: 'email_valid', name: 'email is valid', compliant: true },
            ],
          },
        ],
      },
    },
  },
  violated: {
    satisfiesPolicy: false,
    details: {
      results: {
        root: [
          {
            key: 'quality',
            name: 'Quality',
            description: 'Row-level checks',
            children: [
              {
                key: 'amount_not_null',
                name: 'amount is never null',
                compliant: false,
                issues: ['12 rows have a null amount', 'first at order 4711'],
              },
              { key: 'id_unique', name: 'order id is unique', compliant: true },
            ],
          },
          {
            key: 'sla',
            name: 'SLA',
            children: [{ key: 'freshness', name: 'updated within 2 hours', compliant: true }],
          },
        ],
      },
      notes: { errorSummary: { message: 'Null amounts in 12 orders' } },
    },
  },
  distributed: {
    satisfiesPolicy: false,
    details: {
      results: {
        root: [{ key: 'schema', name: 'Schema', children: [{ key: 'id', compliant: true }] }],
        [EU_VIEW]: [
          {
            key: 'schema',
            name: 'Schema',
            children: [{ key: 'vat_id', compliant: false, issues: ['3 invoices lack a VAT id'] }],
          },
        ],
      },
    },
  },
  // A record with both `compliant` and `children` breaks rule A4.1: stored, but unprocessable.
  unprocessable: {
    satisfiesPolicy: false,
    details: {
      results: {
        root: [{ key: 'quality', compliant: false, children: [{ key: 'x', compliant: true }] }],
      },
    },
  },
} as const;

async function call(
  api: RunningGovernanceApi,
  key: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function waitForPlan(api: RunningGovernanceApi, planPath: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const plan = await call(api, KEYS.coordinator, 'GET', planPath);
    const status = String(plan.json.status);
    if (status !== 'running') {
      if (status !== 'completed') throw new Error(`plan ${status}: ${JSON.stringify(plan.json)}`);
      return status;
    }
    if (Date.now() > deadline) throw new Error('plan still running after 20 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const contractUrl = (api: RunningGovernanceApi, id: string, environment = ENVIRONMENT) =>
  `${api.url}/marketplace/data-contracts/${encodeURIComponent(id)}?environment=${environment}`;

describe.skipIf(!chromiumAvailable('governance-api marketplace pages'))(
  'marketplace pages in headless Chromium',
  () => {
    let dataDir: string;
    let screenshotDir: string;
    let adapter: Awaited<ReturnType<typeof startGuardianTechAdapter>>;
    let api: RunningGovernanceApi;
    let browser: Browser;
    let page: Page;
    const consoleErrors: string[] = [];
    const submissions: Record<string, Record<string, unknown>> = {};
    let policyId: string;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'dcg-web-'));
      screenshotDir = await mkdtemp(join(tmpdir(), 'dcg-web-shots-'));
      adapter = await startGuardianTechAdapter();
      api = await startGovernanceApi({
        dataDir,
        port: 0,
        logger: createLogger('governance-api', { level: 'silent' }),
        config: {
          auth: {
            developmentKey: false,
            apiKeys: [
              { name: 'admin', key: KEYS.admin, role: 'platform-admin' },
              { name: 'coordinator', key: KEYS.coordinator, role: 'coordinator' },
              { name: 'guardian', key: KEYS.guardian, role: 'guardian' },
            ],
          },
          provisioning: { pollIntervalMs: 20 },
        },
      });
      browser = await launchChromium();

      // Data goes in through the public HTTP API only.
      const port = await call(api, KEYS.admin, 'POST', '/v1/infrastructure-templates', {
        id: 'urn:dmb:itm:browser-test-outputport:1',
        name: 'Output port',
        url: adapter.url,
      });
      expect(port.status).toBe(201);
      const guardian = await call(api, KEYS.admin, 'POST', '/v1/infrastructure-templates', {
        id: 'urn:dmb:itm:browser-test-guardian:1',
        name: 'Browser test guardian',
        url: adapter.url,
        properties: {
          dataContractGuardian: {
            policies: [
              {
                resourceType: 'dataproduct',
                spec: { name: 'Shop contracts', description: 'test' },
              },
            ],
          },
        },
      });
      expect(guardian.status).toBe(201);
      policyId = (guardian.json.policies as Array<{ policyId: string }>)[0]!.policyId;

      const deploy = await call(api, KEYS.coordinator, 'POST', '/v1/provisioning/deploy', {
        environment: ENVIRONMENT,
        descriptor: system,
      });
      expect(deploy.status).toBe(202);
      await waitForPlan(api, String(deploy.json.plan));

      // A history for the violated contract: compliant for 12 results before its latest result.
      for (let i = 0; i < 12; i++) {
        const earlier = await call(
          api,
          KEYS.guardian,
          'POST',
          `/v1/computational-governance/policies/${encodeURIComponent(policyId)}/evaluation-results?environment=${ENVIRONMENT}`,
          [{ resource: { id: CONTRACTS.violated, descriptor: '' }, result: results.compliant }],
        );
        expect(earlier.status).toBe(201);
      }
      for (const state of ['compliant', 'violated', 'unprocessable', 'distributed'] as const) {
        const submitted = await call(
          api,
          KEYS.guardian,
          'POST',
          `/v1/computational-governance/policies/${encodeURIComponent(policyId)}/evaluation-results?environment=${ENVIRONMENT}`,
          [{ resource: { id: CONTRACTS[state], descriptor: '' }, result: results[state] }],
        );
        expect(submitted.status).toBe(201);
        submissions[state] = submitted.json;
      }
    });

    afterAll(async () => {
      await browser?.close();
      await api?.close();
      await adapter?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      if (screenshotDir) await rm(screenshotDir, { recursive: true, force: true });
    });

    async function open(url: string, width = 1100): Promise<number> {
      page = await browser.newPage({ viewport: { width, height: 900 } });
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      const response = await page.goto(url);
      return response?.status() ?? 0;
    }

    async function screenshot(name: string): Promise<void> {
      const file = join(screenshotDir, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      const bytes = await readFile(file);
      const size = pngSize(bytes);
      expect(size, `${name}.png is a PNG`).not.toBeNull();
      expect(size!.width).toBe(1100);
      expect(size!.height).toBeGreaterThan(300);
      expect((await stat(file)).size).toBeGreaterThan(10_000);
      if (process.env.DCG_KEEP_SCREENSHOTS) {
        await copyFile(file, join(process.env.DCG_KEEP_SCREENSHOTS, `${name}.png`));
      }
      await page.close();
    }

    it('answered the unprocessable submission with its schema errors', () => {
      expect(submissions.unprocessable).toMatchObject({
        status: 'unprocessable',
        detailsConform: false,
      });
      expect(submissions.violated).toMatchObject({ status: 'violated', detailsConform: true });
    });

    it('lists the instance with the status of each data contract', async () => {
      expect(await open(`${api.url}/marketplace?environment=${ENVIRONMENT}`)).toBe(200);
      await expect(page.title()).resolves.toBe('Marketplace (production) · dcg marketplace');
      const card = page.getByRole('article', { name: 'Shop' });
      await expect(card.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Shop');
      const rows = card.locator('tbody tr');
      const byId = async (id: string) =>
        (
          (await rows.filter({ has: page.locator(`code:text-is("${id}")`) }).textContent()) ?? ''
        ).replace(/\s+/g, ' ');
      expect(await byId(CONTRACTS.compliant)).toContain('Compliant');
      expect(await byId(CONTRACTS.violated)).toContain('Violated');
      expect(await byId(CONTRACTS.unprocessable)).toContain(
        'Monitoring results cannot be processed',
      );
      expect(await byId(CONTRACTS.unknown)).toContain('Unknown');
      expect(await byId('urn:dmb:cmp:sales:shop:0:guardian')).toContain('Not a data contract');
      await expect(card.getByText('5 data contracts:').textContent()).resolves.toBe(
        '5 data contracts: 2 violated, 1 with results that cannot be processed, 1 without results yet, 1 compliant',
      );
      await expect(
        page
          .getByRole('link', { name: 'Orders: Violated, view compliance details' })
          .getAttribute('href'),
      ).resolves.toBe(
        `/marketplace/data-contracts/${encodeURIComponent(CONTRACTS.violated)}?environment=production`,
      );
      // Every badge stays inside its card.
      const cardBox = (await card.boundingBox())!;
      for (const badge of await card.locator('.badge').all()) {
        const box = (await badge.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      }
      await screenshot('list');
    });

    it('shows a violated contract: badge, summary and issues beside the failing requirement', async () => {
      expect(await open(contractUrl(api, CONTRACTS.violated))).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Data contract Orders',
      );
      await expect(page.locator('.badge-large').textContent()).resolves.toContain('Violated');
      await expect(page.locator('.summary').textContent()).resolves.toBe(
        'Null amounts in 12 orders',
      );

      const failing = page.locator('li.requirement[data-key="amount_not_null"]');
      await expect(failing.isVisible()).resolves.toBe(true);
      await expect(failing.locator('.verdict').textContent()).resolves.toContain('Failing');
      const issues = failing.getByRole('list', { name: 'Issues of amount is never null' });
      await expect(issues.getByRole('listitem').allInnerTexts()).resolves.toEqual([
        '12 rows have a null amount',
        'first at order 4711',
      ]);
      // The issues sit beside the requirement, on the right of its verdict.
      const verdictBox = await failing.locator('.verdict').boundingBox();
      const issuesBox = await issues.boundingBox();
      expect(issuesBox!.x).toBeGreaterThan(verdictBox!.x + verdictBox!.width);

      // Where something fails the section is open; the SLA section, all well, is collapsed.
      await expect(
        page.locator('li[data-key="quality"] > details').getAttribute('open'),
      ).resolves.toBe('');
      const sla = page.locator('li[data-key="sla"] > details');
      await expect(sla.getAttribute('open')).resolves.toBeNull();
      const freshness = page.locator('li[data-key="freshness"]');
      await expect(freshness.isVisible()).resolves.toBe(false);
      // What assistive technology gets: named lists, the verdict and name of each requirement, the
      // issues as a list named after their requirement; the collapsed SLA section hides its records.
      await expect(page.getByRole('region', { name: 'Records' }).ariaSnapshot()).resolves.toBe(
        [
          '- region "Records":',
          '  - heading "Records" [level=2]',
          '  - list "Validation records":',
          '    - listitem:',
          '      - group:',
          '        - text: Quality',
          '        - code: quality',
          '        - text: 1 of 2 requirements failing',
          '        - paragraph: Row-level checks',
          '        - list:',
          '          - listitem:',
          '            - text: Failing amount is never null',
          '            - code: amount_not_null',
          '            - list "Issues of amount is never null":',
          '              - listitem: 12 rows have a null amount',
          '              - listitem: first at order 4711',
          '          - listitem:',
          '            - text: Met order id is unique',
          '            - code: id_unique',
          '    - listitem:',
          '      - group:',
          '        - text: SLA',
          '        - code: sla',
          '        - text: the requirement is met',
        ].join('\n'),
      );

      // The JSON link answers the same status.
      const json = await page.request.get(
        new URL(
          (await page.getByRole('link', { name: 'This status as JSON' }).getAttribute('href'))!,
          api.url,
        ).href,
      );
      expect(json.status()).toBe(200);
      expect(await json.json()).toMatchObject({
        status: 'violated',
        summary: 'Null amounts in 12 orders',
      });
      await screenshot('violated');
    });

    it('shows a compliant contract with its sections collapsed until opened', async () => {
      expect(await open(contractUrl(api, CONTRACTS.compliant))).toBe(200);
      await expect(page.locator('.badge-large').textContent()).resolves.toContain('Compliant');
      await expect(page.getByRole('heading', { name: 'Error summary' }).count()).resolves.toBe(0);
      await expect(page.locator('details[open]').count()).resolves.toBe(0);
      const requirement = page.locator('li[data-key="id_unique"]');
      await expect(requirement.isVisible()).resolves.toBe(false);
      await screenshot('compliant');
      // <details> opens without any script.
      expect(await open(contractUrl(api, CONTRACTS.compliant))).toBe(200);
      // The first Tab stop skips to the content; sections open from the keyboard.
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.textContent ?? '')).resolves.toBe(
        'Skip to main content',
      );
      await page.locator('li[data-key="schema"] > details > summary').focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('li[data-key="id_unique"]').textContent()).resolves.toContain(
        'id is unique',
      );
      await page.close();
    });

    it('says that the monitoring results cannot be processed and lists the schema errors', async () => {
      expect(await open(contractUrl(api, CONTRACTS.unprocessable))).toBe(200);
      await expect(page.locator('.badge-large').textContent()).resolves.toContain(
        'Monitoring results cannot be processed',
      );
      const alert = page.getByRole('alert');
      await expect(alert.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
        'The monitoring results cannot be processed',
      );
      const errors = await alert.getByRole('list').getByRole('listitem').allInnerTexts();
      expect(errors.length).toBeGreaterThan(0);
      // The page lists the schema errors the submitter was answered with, one sentence each,
      // located relative to the details: no JSONPath, no backticks.
      const answered = submissions.unprocessable!.schemaErrors as Array<{ path: string }>;
      expect(answered.length).toBe(errors.length);
      expect(answered[0]!.path).toBe('$[0].result.details.results.root[0]');
      expect(errors[0]).toBe(
        'root › record 1: This record has both a verdict (“compliant”) and sub-records (“children”): a record is either a requirement or a section, never both.',
      );
      for (const error of errors) expect(error).not.toMatch(/\$|`|result\.details/);
      await expect(page.locator('.tree').count()).resolves.toBe(0);
      await screenshot('unprocessable');
    });

    it('helps with an unknown contract and with a missing environment', async () => {
      expect(await open(contractUrl(api, CONTRACTS.violated, 'staging'))).toBe(404);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Data contract not found in environment staging',
      );
      await expect(
        page.getByRole('link', { name: 'production' }).getAttribute('href'),
      ).resolves.toBe(
        `/marketplace/data-contracts/${encodeURIComponent(CONTRACTS.violated)}?environment=production`,
      );
      await screenshot('unknown-contract');
      // The JSON API answers the same id with 404 as well.
      const json = await fetch(
        `${api.url}/v1/marketplace/data-contracts/${encodeURIComponent(CONTRACTS.violated)}/compliance?environment=staging`,
      );
      expect(json.status).toBe(404);

      expect(
        await open(
          `${api.url}/marketplace/data-contracts/${encodeURIComponent(CONTRACTS.violated)}`,
        ),
      ).toBe(400);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Choose an environment',
      );
      await page.getByRole('link', { name: 'production' }).click();
      await expect(page.locator('.badge-large').textContent()).resolves.toContain('Violated');
      // The system link leads to the system's page.
      await page.getByRole('link', { name: 'Shop', exact: true }).click();
      await page.waitForURL(/\/marketplace\/systems\//);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Shop');
      // Its link back lands on the instance's card in the list, highlighted as the target.
      await page.getByRole('link', { name: 'Back to the list of instances' }).click();
      await page.waitForURL(/\/marketplace\?environment=production#/);
      await expect(page.locator('.card:target h2').textContent()).resolves.toBe('Shop');
      await page.close();
    });

    it('says when no result has arrived yet for a deployed contract', async () => {
      expect(await open(contractUrl(api, CONTRACTS.unknown))).toBe(200);
      await expect(page.locator('.badge-large').textContent()).resolves.toContain('Unknown');
      await expect(
        page.getByRole('heading', { name: 'No monitoring results yet' }).isVisible(),
      ).resolves.toBe(true);
      await page.close();
    });

    it('groups the records of a distributed contract per target, named after the subcomponent', async () => {
      expect(await open(contractUrl(api, CONTRACTS.distributed))).toBe(200);
      const root = page.locator('li[data-target="root"] > details');
      const eu = page.locator(`li[data-target="${EU_VIEW}"] > details`);
      await expect(root.getAttribute('open')).resolves.toBeNull();
      await expect(eu.getAttribute('open')).resolves.toBe('');
      await expect(eu.locator('> summary').textContent()).resolves.toBe(
        `Subcomponent Invoices EU ${EU_VIEW} 1 of 1 requirement failing`,
      );
      await expect(
        eu.getByRole('list', { name: 'Issues of vat_id' }).getByRole('listitem').allInnerTexts(),
      ).resolves.toEqual(['3 invoices lack a VAT id']);
      await page.close();
    });

    it('shows the Technical information each tech adapter published on the system page', async () => {
      expect(
        await open(
          `${api.url}/marketplace/systems/${encodeURIComponent(SYSTEM_ID)}?environment=${ENVIRONMENT}`,
        ),
      ).toBe(200);
      await expect(page.title()).resolves.toBe('Shop (production) · dcg marketplace');
      const orders = page.getByRole('region', { name: 'Orders' });
      const info = orders.getByRole('region', { name: 'Technical information' });
      await expect(info.locator('dt[data-key="monitoring"]').textContent()).resolves.toBe(
        'Monitoring',
      );
      await expect(
        info.getByRole('link', { name: 'Open the dashboard' }).getAttribute('href'),
      ).resolves.toBe(`https://dashboards.example/d/${encodeURIComponent(CONTRACTS.violated)}`);
      // Nested values stay readable: a list of labelled values inside the entry.
      const connection = info.locator('dt[data-key="connection"] + dd');
      await expect(connection.locator('dt').allTextContents()).resolves.toEqual([
        'Host',
        'Port',
        'Schemas',
      ]);
      await expect(connection.locator('dd li').allTextContents()).resolves.toEqual([
        'sales',
        'archive',
      ]);
      // The guardian's private info (its policy id) is never shown.
      await expect(page.content()).resolves.not.toContain('__dataContractGuardian');
      await expect(
        orders.getByRole('link', { name: 'Orders: Violated, view compliance details' }).count(),
      ).resolves.toBe(1);
      await screenshot('system');
    });

    it('names the policy with a link to its page', async () => {
      expect(await open(contractUrl(api, CONTRACTS.violated))).toBe(200);
      const link = page.locator('.facts').getByRole('link', { name: 'Shop contracts' });
      await expect(link.getAttribute('href')).resolves.toBe(
        `/marketplace/policies/${encodeURIComponent(policyId)}`,
      );
      await link.click();
      await page.waitForURL(/\/marketplace\/policies\//);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Policy Shop contracts',
      );
      await expect(page.locator('.facts').textContent()).resolves.toContain('dataproduct');
      await screenshot('policy');
    });

    it('shows the result history as a timeline of states, the latest 10 with a link to the rest', async () => {
      expect(await open(contractUrl(api, CONTRACTS.violated))).toBe(200);
      const timeline = page.getByRole('list', { name: 'Latest results' });
      const items = timeline.getByRole('listitem');
      await expect(items.count()).resolves.toBe(10);
      await expect(items.first().textContent()).resolves.toMatch(
        /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC Compliance status: ✗ Violated changed \(latest\)policy Shop contracts$/,
      );
      await expect(items.nth(1).locator('.badge').getAttribute('data-status')).resolves.toBe(
        'compliant',
      );
      await expect(
        page.getByText('The latest 10 of 13 results, newest first.').count(),
      ).resolves.toBe(1);
      await screenshot('history');

      expect(await open(contractUrl(api, CONTRACTS.violated))).toBe(200);
      await page.getByRole('link', { name: 'All 13 results' }).click();
      await page.waitForURL(/\/history\?/);
      await expect(
        page.getByRole('list', { name: 'Results' }).getByRole('listitem').count(),
      ).resolves.toBe(13);
      await expect(page.getByRole('status').textContent()).resolves.toBe(
        'Results 1 to 13 of 13 in environment production, newest first.',
      );
      await screenshot('history-page');
    });

    it('never gives a component that is not a data contract a "Data contract" page', async () => {
      const guardianId = 'urn:dmb:cmp:sales:shop:0:guardian';
      expect(await open(contractUrl(api, guardianId))).toBe(404);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Shop guardian is not a data contract',
      );
      await screenshot('not-a-data-contract');
      expect(await open(contractUrl(api, guardianId))).toBe(404);
      await page.getByRole('link', { name: 'See Shop guardian on the page of Shop' }).click();
      await page.waitForURL(/\/marketplace\/systems\//);
      await expect(page.locator('.component:target h2').textContent()).resolves.toBe(
        'Shop guardian',
      );
      await page.close();
      const json = await fetch(
        `${api.url}/v1/marketplace/data-contracts/${encodeURIComponent(guardianId)}/compliance?environment=${ENVIRONMENT}`,
      );
      expect(json.status).toBe(404);
    });

    it('says when the verdict overrides the records instead of contradicting the counts', async () => {
      const submit = async (contract: string, result: unknown) =>
        call(
          api,
          KEYS.guardian,
          'POST',
          `/v1/computational-governance/policies/${encodeURIComponent(policyId)}/evaluation-results?environment=${ENVIRONMENT}`,
          [{ resource: { id: contract, descriptor: '' }, result }],
        );
      // Compliant by its verdict, with a failing requirement: the compliant result, one check failing.
      const schemaSection = results.compliant.details.results.root[0];
      expect(
        (
          await submit(CONTRACTS.compliant, {
            ...results.compliant,
            details: {
              results: {
                root: [
                  {
                    ...schemaSection,
                    children: [
                      schemaSection.children[0],
                      { ...schemaSection.children[1], compliant: false, issues: ['2 bad emails'] },
                    ],
                  },
                ],
              },
            },
          })
        ).status,
      ).toBe(201);
      expect(await open(contractUrl(api, CONTRACTS.compliant))).toBe(200);
      await expect(page.locator('.badge-large').textContent()).resolves.toContain('Compliant');
      await expect(page.getByRole('note').textContent()).resolves.toBe(
        'The verdict overrides the records. The guardian declared the data contract compliant although 1 requirement fails: its verdict decides the status, so the failing requirements below do not make it violated.',
      );
      await expect(page.locator('.facts').textContent()).resolves.toContain(
        "1 met, 1 failing (the guardian's verdict decides the status)",
      );
      await screenshot('override-compliant');

      // Violated by its verdict, with no failing requirement.
      expect(
        (
          await submit(CONTRACTS.distributed, {
            satisfiesPolicy: false,
            details: {
              results: {
                root: [
                  { key: 'schema', name: 'Schema', children: [{ key: 'id', compliant: true }] },
                ],
              },
            },
          })
        ).status,
      ).toBe(201);
      expect(await open(contractUrl(api, CONTRACTS.distributed))).toBe(200);
      await expect(page.getByRole('note').textContent()).resolves.toContain(
        'declared the data contract violated although none of its 1 requirement fails',
      );
      await expect(page.locator('.summary').textContent()).resolves.toBe(
        'The guardian reported a violation without a summary.',
      );
      await screenshot('override-violated');
    });

    it('keeps the indentation of a deep tree bounded, showing the level instead', async () => {
      let node: Record<string, unknown> = {
        key: 'deepest',
        name: 'deepest requirement',
        compliant: false,
        issues: ['found at the bottom'],
      };
      for (let level = 14; level >= 1; level--) {
        node = { key: `level-${level}`, name: `Level ${level}`, children: [node] };
      }
      const submitted = await call(
        api,
        KEYS.guardian,
        'POST',
        `/v1/computational-governance/policies/${encodeURIComponent(policyId)}/evaluation-results?environment=${ENVIRONMENT}`,
        [
          {
            resource: { id: CONTRACTS.unknown, descriptor: '' },
            result: { satisfiesPolicy: false, details: { results: { root: [node] } } },
          },
        ],
      );
      expect(submitted.status).toBe(201);
      expect(await open(contractUrl(api, CONTRACTS.unknown))).toBe(200);
      const left = async (key: string) =>
        (await page.locator(`li[data-key="${key}"]`).first().boundingBox())!.x;
      // Indentation grows up to the cap, then stays.
      expect(await left('level-6')).toBeGreaterThan(await left('level-2'));
      expect(await left('level-10')).toBe(await left('level-7'));
      expect(await left('deepest')).toBe(await left('level-7'));
      await expect(page.locator('li[data-key="deepest"] .depth').textContent()).resolves.toBe(
        'level 15',
      );
      await screenshot('deep-tree');
      // A phone shows it without scrolling sideways.
      expect(await open(contractUrl(api, CONTRACTS.unknown), 375)).toBe(200);
      await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBe(375);
      await page.close();
    });

    it('fits a phone screen without scrolling sideways', async () => {
      for (const url of [
        `${api.url}/marketplace`,
        contractUrl(api, CONTRACTS.violated),
        contractUrl(api, CONTRACTS.unprocessable),
        `${api.url}/marketplace/systems/${encodeURIComponent(SYSTEM_ID)}?environment=${ENVIRONMENT}`,
      ]) {
        expect(await open(url, 375)).toBe(200);
        await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBe(375);
        await page.close();
      }
    });

    it('follows a dark colour scheme preference', async () => {
      page = await browser.newPage({ colorScheme: 'dark' });
      await page.goto(contractUrl(api, CONTRACTS.violated));
      const colours = await page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
      }));
      expect(colours).toEqual({ background: 'rgb(15, 23, 32)', text: 'rgb(228, 231, 235)' });
      await page.close();
    });

    it('loaded every page without a console error (no blocked style, no missing asset)', () => {
      expect(consoleErrors.filter((text) => !text.includes('status of 40'))).toEqual([]);
    });
  },
);

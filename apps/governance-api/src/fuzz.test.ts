import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@dcg/http-kit';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, request, testConfig } from './__fixtures__/test-keys';
import { type RunningGovernanceApi, startGovernanceApi } from './server';

const CONTRACT = 'urn:dmb:cmp:fuzz:0:port';

/** A digest of every table, read straight from the SQLite file. */
function snapshot(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const hash = createHash('sha256');
    for (const table of [
      'templates',
      'policies',
      'plans',
      'instances',
      'evaluation_results',
      'current_results',
    ]) {
      for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all())
        hash.update(JSON.stringify(row));
      hash.update(`|${table}|`);
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

// Endpoints, with `{}` standing for a path parameter.
const ENDPOINTS: Array<[method: string, path: string]> = [
  ['POST', '/v1/infrastructure-templates'],
  ['POST', '/api/builder/register'],
  ['GET', '/v1/infrastructure-templates/{}'],
  ['GET', '/v1/computational-governance/policies'],
  ['GET', '/v1/computational-governance/policies/{}'],
  ['POST', '/v1/computational-governance/policies'],
  ['POST', '/v1/computational-governance/policies/{}/evaluation-results'],
  ['POST', '/v1/computational-governance/policies/fuzz-passive/evaluation-results'],
  ['GET', '/v1/computational-governance/data-contracts/{}/evaluation-results'],
  ['POST', '/v1/provisioning/deploy'],
  ['POST', '/v1/provisioning/undeploy'],
  ['GET', '/v1/provisioning/plans'],
  ['GET', '/v1/provisioning/plans/{}'],
  ['GET', '/v1/marketplace/instances'],
  ['GET', '/v1/marketplace/instances/{}'],
  ['GET', '/v1/marketplace/instances/{}/descriptor'],
  ['GET', '/v1/marketplace/data-contracts/{}/compliance'],
  ['GET', '/marketplace'],
  ['GET', '/marketplace/data-contracts/{}'],
  ['GET', '/marketplace/data-contracts/{}/history'],
  ['GET', '/marketplace/systems/{}'],
  ['GET', '/marketplace/policies/{}'],
  ['PUT', '/v1/computational-governance/policies'],
  ['DELETE', '/v1/infrastructure-templates/{}'],
];

const validResult = {
  resource: { id: CONTRACT, descriptor: '' },
  result: {
    satisfiesPolicy: true,
    details: { results: { root: [{ key: 'a', compliant: true }] } },
  },
};

// Bodies that must be refused: random JSON, broken text, and near-misses of valid bodies.
const body = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '{',
    '[',
    '{"a":',
    '\u0000',
    'null',
    '[]',
    '[{}]',
    '{"environment":"x"}',
    'kind: [',
    '"\\ud800"',
  ),
  fc.anything({ maxDepth: 3 }).map((v) => JSON.stringify([validResult, v])),
  fc
    .anything({ maxDepth: 2 })
    .map((v) =>
      JSON.stringify(
        [{ ...validResult, resource: { id: v, descriptor: '' } }].filter(
          () => typeof v !== 'string',
        ),
      ),
    ),
  fc.anything({ maxDepth: 2 }).map((v) =>
    JSON.stringify([
      {
        resource: validResult.resource,
        result: { satisfiesPolicy: typeof v === 'boolean' ? String(v) : v, details: {} },
      },
    ]),
  ),
  fc
    .anything({ maxDepth: 2 })
    .map((v) =>
      JSON.stringify({ id: 'urn:dmb:itm:fuzz', name: 'F', url: typeof v === 'string' ? 5 : v }),
    ),
  fc.anything({ maxDepth: 2 }).map((v) =>
    JSON.stringify({
      environment: 'fuzz',
      descriptor: { id: 'urn:x', kind: typeof v === 'string' ? 7 : v },
    }),
  ),
  fc
    .anything({ maxDepth: 2 })
    .map((v) =>
      JSON.stringify({ name: 'n', resourceType: 'r', trigger: 'passive', unknownKey: v }),
    ),
);

const segment = fc.oneof(
  fc.string({ maxLength: 60 }).map(encodeURIComponent),
  fc.constantFrom(
    '%',
    '%E0%A4%A',
    '%00',
    '..',
    '%2F',
    'a%20b',
    CONTRACT,
    'fuzz-passive',
    'fuzz-active',
    '%ZZ',
    '\u00e9',
  ),
);

const query = fc.oneof(
  fc.constant(''),
  fc
    .record(
      {
        environment: fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.constantFrom('', 'production', '%00'),
        ),
        limit: fc.oneof(fc.string({ maxLength: 6 }), fc.integer().map(String)),
        offset: fc.oneof(fc.string({ maxLength: 6 }), fc.integer().map(String)),
        trigger: fc.string({ maxLength: 8 }),
        status: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('running', 'failed')),
        state: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('completed', 'failed')),
      },
      { requiredKeys: [] },
    )
    .map((q) => `?${new URLSearchParams(q as Record<string, string>).toString()}`),
);

const headers = fc.record(
  {
    authorization: fc.oneof(
      fc.constantFrom(
        `Bearer ${KEYS.admin}`,
        `Bearer ${KEYS.guardian}`,
        `Bearer ${KEYS.coordinator}`,
        `Bearer ${KEYS.reader}`,
        'Bearer',
        'Basic x',
        `bearer ${KEYS.admin}x`,
      ),
      fc.string({ maxLength: 40 }).map((s) => `Bearer ${s.replace(/[^\x21-\x7e]/g, '')}`),
    ),
    'content-type': fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
    ),
    'x-request-id': fc.string({ maxLength: 200 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  },
  { requiredKeys: [] },
);

describe('fuzz: malformed bodies, headers and paths at every endpoint', () => {
  let api: RunningGovernanceApi;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'governance-fuzz-'));
    api = await startGovernanceApi({
      config: testConfig,
      dataDir: dir,
      logger: createLogger('fuzz', { level: 'silent' }),
    });
    const admin = { key: KEYS.admin };
    await request(`${api.url}/v1/computational-governance/policies`, {
      ...admin,
      body: { id: 'fuzz-passive', name: 'P', resourceType: 'dataproduct', trigger: 'passive' },
    });
    await request(`${api.url}/v1/computational-governance/policies`, {
      ...admin,
      body: { id: 'fuzz-active', name: 'A', resourceType: 'dataproduct', trigger: 'active' },
    });
    await request(`${api.url}/v1/infrastructure-templates`, {
      ...admin,
      body: { id: 'urn:dmb:itm:fuzz:1', name: 'T', url: 'http://127.0.0.1:9' },
    });
    const ok = await request(
      `${api.url}/v1/computational-governance/policies/fuzz-passive/evaluation-results?environment=production`,
      { key: KEYS.guardian, body: [validResult] },
    );
    expect(ok.status).toBe(201);
  });
  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The tables as the API sees them, read after a request of results: the file then holds
   * everything that was stored.
   */
  async function storedData(): Promise<string> {
    const history = await fetch(
      `${api.url}/v1/computational-governance/data-contracts/${encodeURIComponent(CONTRACT)}/evaluation-results`,
      { headers: { authorization: `Bearer ${KEYS.reader}` } },
    );
    expect(history.status).toBe(200);
    return snapshot(join(dir, 'governance.db'));
  }

  it('never answers 5xx and never changes stored data', async () => {
    const before = await storedData();
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        segment,
        query,
        headers,
        body,
        async ([method, path], param, q, h, b) => {
          const url = `${api.url}${path.replace('{}', param)}${q}`;
          const res = await fetch(url, {
            method,
            headers: h,
            ...(method === 'GET' ? {} : { body: b }),
          });
          await res.arrayBuffer();
          if (res.status >= 500)
            failures.push(
              `${method} ${url} ${JSON.stringify(h)} ${b.slice(0, 200)} → ${res.status}`,
            );
          return res.status < 500;
        },
      ),
      { numRuns: 400, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000) },
    );
    expect(failures).toEqual([]);
    await api.governance.coordinator.idle();
    expect(await storedData()).toBe(before);
  });
});

// Hostile shapes of issue 9: deep nesting, YAML aliases, empty and invalid UTF-8 bodies, huge pages.
// Nested texts are built as strings: JSON.stringify itself overflows the stack on them.
const nestedDetailsText = (levels: number) =>
  `[{"resource":{"id":"${CONTRACT}","descriptor":""},"result":{"satisfiesPolicy":false,"details":{"results":{"root":[${'{"key":"s","children":['.repeat(levels)}{"key":"leaf","compliant":true}${']}'.repeat(levels)}]}}}}]`;

const nestedComponentsText = (levels: number) =>
  `{"environment":"fuzz","descriptor":{"id":"urn:dmb:dp:fuzz:deep:0","kind":"dataproduct","components":[${'{"id":"urn:dmb:cmp:fuzz:0:c","components":['.repeat(levels)}{"id":"urn:dmb:cmp:fuzz:0:leaf"}${']}'.repeat(levels)}]}}`;

const deploy = (descriptor: unknown) => JSON.stringify({ environment: 'fuzz', descriptor });

const deepBody = fc
  .tuple(
    fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 300, max: 50_000 })),
    fc.constantFrom('array', 'object', 'details', 'components', 'flow-yaml', 'block-yaml'),
  )
  .map(([depth, shape]) => {
    switch (shape) {
      case 'array':
        return `${'['.repeat(depth)}${']'.repeat(depth)}`;
      case 'object':
        return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      case 'details':
        return nestedDetailsText(depth);
      case 'components':
        return nestedComponentsText(depth);
      case 'flow-yaml':
        return deploy(`a: ${'['.repeat(depth)}${']'.repeat(depth)}`);
      default: {
        let text = 'id: urn:dmb:dp:fuzz:block:0\nkind: dataproduct\nx:\n';
        for (let i = 1; i <= Math.min(depth, 1500); i++) text += `${' '.repeat(i)}- \n`;
        return deploy(text);
      }
    }
  });

const aliasBody = fc
  .tuple(
    fc.integer({ min: 1, max: 400_000 }),
    fc.integer({ min: 1, max: 99 }),
    fc.integer({ min: 0, max: 40 }),
  )
  .map(([anchor, aliases, doublings]) => {
    const lines = [
      'id: urn:dmb:dp:fuzz:alias:0',
      'kind: dataproduct',
      `l0: &l0 ["${'x'.repeat(anchor)}"]`,
    ];
    for (let i = 1; i <= doublings; i++) lines.push(`l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`);
    lines.push('copies:');
    for (let i = 0; i < aliases; i++) lines.push(`  - *l${doublings}`);
    return deploy(`${lines.join('\n')}\n`);
  });

const hostileBody = fc.oneof(
  deepBody,
  aliasBody,
  fc.constantFrom('', ' ', '\n'),
  // Invalid UTF-8: lone continuation bytes, overlong forms, truncated sequences.
  fc
    .array(fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xe0, 0xed, 0xa0, 0xf5, 0xff, 0x22, 0x7b), {
      minLength: 1,
      maxLength: 40,
    })
    .map((bytes) => new Uint8Array([0x5b, 0x7b, 0x22, ...bytes, 0x22, 0x7d, 0x5d])),
);

const HOSTILE_POSTS = [
  '/v1/computational-governance/policies/fuzz-passive/evaluation-results?environment=production',
  '/v1/provisioning/deploy',
  '/v1/provisioning/undeploy',
  '/v1/infrastructure-templates',
  '/v1/computational-governance/policies',
];

describe('fuzz: deep nesting, YAML aliases, empty and invalid UTF-8 bodies, huge pages', () => {
  const MAX_PAGE_BYTES = 1024 * 1024;
  let api: RunningGovernanceApi;
  let dir: string;
  const stats = { requests: 0, fiveHundreds: 0, hangs: 0, peakRss: 0 };
  let sampler: ReturnType<typeof setInterval> | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'governance-fuzz-hostile-'));
    api = await startGovernanceApi({
      config: { ...testConfig, limits: { maxPageBytes: MAX_PAGE_BYTES } },
      dataDir: dir,
      logger: createLogger('fuzz', { level: 'silent' }),
    });
    await request(`${api.url}/v1/computational-governance/policies`, {
      key: KEYS.admin,
      body: { id: 'fuzz-passive', name: 'P', resourceType: 'dataproduct', trigger: 'passive' },
    });
    // Large results, so that a page of 1,000 would be 12 MB.
    for (let i = 0; i < 40; i++) {
      const res = await request(
        `${api.url}/v1/computational-governance/policies/fuzz-passive/evaluation-results?environment=production`,
        {
          key: KEYS.guardian,
          body: [{ ...validResult, resource: { id: CONTRACT, descriptor: 'd'.repeat(300_000) } }],
        },
      );
      expect(res.status).toBe(201);
    }
    // Client and server share this process: its peak RSS bounds the server's.
    sampler = setInterval(() => {
      stats.peakRss = Math.max(stats.peakRss, process.memoryUsage().rss);
    }, 20);
  });
  afterAll(async () => {
    clearInterval(sampler);
    await api?.governance.coordinator.idle();
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
    console.info(
      `[governance-api fuzz, hostile shapes] ${stats.requests} requests, ${stats.fiveHundreds} answered 5xx, ${stats.hangs} hangs (no answer within 20 s), peak RSS ${Math.round(stats.peakRss / 1024 / 1024)} MiB`,
    );
  });

  it('answers every hostile body with a 4xx or a success, never 5xx', async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HOSTILE_POSTS), hostileBody, async (path, b) => {
        const key = path.includes('evaluation-results')
          ? KEYS.guardian
          : path.includes('provisioning')
            ? KEYS.coordinator
            : KEYS.admin;
        stats.requests++;
        let res: Response;
        try {
          res = await fetch(`${api.url}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: b,
            signal: AbortSignal.timeout(20_000),
          });
          await res.arrayBuffer();
        } catch (error) {
          stats.hangs++;
          failures.push(`POST ${path}: no answer (${(error as Error).name})`);
          return false;
        }
        if (res.status >= 500) {
          stats.fiveHundreds++;
          const text = typeof b === 'string' ? b.slice(0, 120) : `${b.length} bytes`;
          failures.push(`POST ${path} ${text} → ${res.status}`);
        }
        return res.status < 500;
      }),
      { numRuns: 150, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000) },
    );
    expect(failures).toEqual([]);
  }, 120_000);

  it('keeps every page of large items under limits.maxPageBytes, whatever limit and offset', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          `/v1/computational-governance/data-contracts/${encodeURIComponent(CONTRACT)}/evaluation-results`,
          '/v1/provisioning/plans',
        ),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 60 }),
        async (path, limit, offset) => {
          const res = await request(`${api.url}${path}?limit=${limit}&offset=${offset}`, {
            key: KEYS.reader,
          });
          const text = await res.text();
          stats.requests++;
          if (res.status >= 500) stats.fiveHundreds++;
          expect(res.status).toBe(200);
          const page = JSON.parse(text);
          expect(page.data.length).toBeLessThanOrEqual(limit);
          // A page holds at least one item, so one item may exceed the budget, alone.
          if (text.length > MAX_PAGE_BYTES + 1024) expect(page.data.length).toBe(1);
        },
      ),
      { numRuns: 40, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000) },
    );
  }, 120_000);
});

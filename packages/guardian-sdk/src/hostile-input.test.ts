import { stringifyDescriptorYaml } from '@dcg/contract-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { provisioningRequest, system } from './__fixtures__/systems';
import { parseDataContract } from './data-contract';
import { convertDatacontractCliRun } from './datacontract-cli';
import { GuardianSdkError } from './guardian-sdk-error';
import { createGuardianAdapter } from './tech-adapter';

// Every input is hostile: arbitrary JSON never crashes the parsers, and never gets a 5xx from the adapter.
const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const runs = { numRuns: 300, ...(seed === undefined ? {} : { seed }) };
const json = fc.jsonValue({ maxDepth: 5 });
const contractLike = fc.record(
  {
    apiVersion: fc.oneof(fc.constant('v3.0.2'), fc.string()),
    schema: fc.oneof(
      json,
      fc.array(
        fc.record(
          { name: fc.string(), dataType: json, constraint: json, properties: json, quality: json },
          { requiredKeys: [] },
        ),
      ),
    ),
    SLA: json,
    endpoint: json,
    slaProperties: json,
    servers: json,
  },
  { requiredKeys: [] },
);

describe('hostile input', () => {
  it('parseDataContract returns issues with array paths, never throws', () => {
    fc.assert(
      fc.property(fc.oneof(json, contractLike), (raw) => {
        const parsed = parseDataContract(raw);
        if (!parsed.success) {
          expect(parsed.issues.length).toBeGreaterThan(0);
          for (const issue of parsed.issues) expect(Array.isArray(issue.path)).toBe(true);
        }
      }),
      runs,
    );
  });

  it('convertDatacontractCliRun converts or throws invalid_argument, nothing else', () => {
    fc.assert(
      fc.property(json, (raw) => {
        try {
          convertDatacontractCliRun(raw, { resourceId: 'urn:x' });
        } catch (error) {
          expect(GuardianSdkError.isInstance(error) && error.code).toBe('invalid_argument');
        }
      }),
      runs,
    );
  });

  it('the adapter answers every body and descriptor with a 2xx or 4xx', async () => {
    const { app } = createGuardianAdapter({ onProvision: () => undefined });
    const paths = [
      '/v1/provision',
      '/v1/unprovision',
      '/v1/validate',
      '/v2/validate',
      '/v1/updateacl',
      '/v1/reverse-provisioning',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.oneof(
          json.map((v) => JSON.stringify(v)),
          fc.string(),
          fc
            .record({ dataProduct: json, componentIdToProvision: json }, { requiredKeys: [] })
            .map((d) =>
              JSON.stringify({
                descriptorKind: 'COMPONENT_DESCRIPTOR',
                descriptor: stringifyDescriptorYaml(d),
                removeData: false,
              }),
            ),
          contractLike.map((contract) =>
            JSON.stringify(provisioningRequest(system({ policyId: 'p', contract }))),
          ),
        ),
        async (path, body) => {
          const res = await app.request(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          expect(res.status, `${path} ${body.slice(0, 200)}`).toBeLessThan(500);
          await res.text();
        },
      ),
      { ...runs, numRuns: 200 },
    );
  });
});

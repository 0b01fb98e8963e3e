import { z } from 'zod';
import { ContractSchemaError } from './contract-schema-error';
import { ComponentDescriptorSchema, SystemDescriptorSchema } from './descriptor';
import { EvaluationResultSchema, EvaluationResultSubmissionSchema } from './evaluation-result';
import { DataContractGuardianSchema, GuardianPolicyEntrySchema } from './guardian-policy';
import { InfrastructureTemplateSchema } from './infrastructure-template';
import { ProvisioningRequestSchema } from './provisioning-request';
import { ProvisioningStatusSchema } from './provisioning-status';
import { ResultDetailsSchema } from './result-details';
import { TechAdapterErrorSchema } from './tech-adapter-error';
import { ValidationResultSchema } from './validation-result';

/** The zod schema behind each published JSON Schema (`json-schema/<name>.json`). */
const SOURCES = {
  'data-contract-guardian': DataContractGuardianSchema,
  'guardian-policy-entry': GuardianPolicyEntrySchema,
  'infrastructure-template': InfrastructureTemplateSchema,
  'component-descriptor': ComponentDescriptorSchema,
  'system-descriptor': SystemDescriptorSchema,
  'result-details': ResultDetailsSchema,
  'evaluation-result': EvaluationResultSchema,
  'evaluation-result-submission': EvaluationResultSubmissionSchema,
  'provisioning-request': ProvisioningRequestSchema,
  'provisioning-status': ProvisioningStatusSchema,
  'validation-result': ValidationResultSchema,
  'tech-adapter-error': TechAdapterErrorSchema,
} as const satisfies Record<string, z.ZodType>;

/** Name of a published JSON Schema. */
export type JsonSchemaName = keyof typeof SOURCES;

/**
 * Every published JSON Schema name, in a stable order.
 *
 * @example
 * for (const name of JSON_SCHEMA_NAMES) console.log(name, toDraft07JsonSchema(name).title);
 */
export const JSON_SCHEMA_NAMES = Object.keys(SOURCES) as JsonSchemaName[];

/**
 * Whether `name` is the name of a published JSON Schema.
 *
 * @example
 * isJsonSchemaName('result-details'); // true
 */
export function isJsonSchemaName(name: string): name is JsonSchemaName {
  return Object.hasOwn(SOURCES, name);
}

/**
 * The zod schema a published JSON Schema is generated from.
 *
 * @example
 * zodSchemaFor('provisioning-status').safeParse({ status: 'COMPLETED', result: '' });
 */
export function zodSchemaFor(name: JsonSchemaName): z.ZodType {
  return SOURCES[name];
}

/**
 * Generates the draft-07 JSON Schema of `name` from its zod schema: the same document that is
 * committed as `json-schema/<name>.json` (a test fails when they drift apart). Validates the
 * input side: unknown fields are allowed wherever zod preserves them.
 *
 * @example
 * const schema = toDraft07JsonSchema('result-details');
 * // { $schema: 'http://json-schema.org/draft-07/schema#', title: 'ResultDetails', … }
 */
export function toDraft07JsonSchema(name: string): Record<string, unknown> {
  if (!isJsonSchemaName(name)) {
    throw new ContractSchemaError(
      'unknown_schema',
      `unknown schema "${name}"; known: ${JSON_SCHEMA_NAMES.join(', ')}`,
    );
  }
  return z.toJSONSchema(SOURCES[name], {
    target: 'draft-07',
    io: 'input',
    unrepresentable: 'throw',
  }) as Record<string, unknown>;
}

import {
  DEFAULT_PAGE_SIZE,
  RegisteredTemplateSchema as DomainRegisteredTemplateSchema,
  MAX_ENVIRONMENT_LENGTH,
  MAX_PAGE_OFFSET,
  MAX_PAGE_SIZE,
} from '@dcg/governance';
import {
  AcceptedEvaluationResultSchema as AcceptedEvaluationResultWire,
  ContractComplianceSchema,
  DeployedDescriptorSchema,
  EvaluationResultHistorySchema,
  MarketplaceInstanceListSchema,
  MarketplaceInstanceSchema,
  PaginationMetaSchema as PaginationMetaWire,
  PolicyPageSchema as PolicyPageWire,
  PolicySchema as PolicyWire,
} from '@dcg/governance-schema';
import { z } from 'zod';
import { wireSchema } from './json-schema-component';

/** Security requirement of the guarded endpoints. */
export const bearerSecurity = [{ bearerAuth: [] }];

/** An environment name in a query (the domain's limit). */
export const EnvironmentSchema = z.string().min(1).max(MAX_ENVIRONMENT_LENGTH);

/**
 * The path parameters of a route with one id, `{name}`: 1 to `maxLength` characters.
 *
 * @example
 * request: { params: idPathParams('id', MAX_ID_LENGTH) }
 */
export function idPathParams<const Name extends string>(name: Name, maxLength: number) {
  const id = z
    .string()
    .min(1)
    .max(maxLength)
    .meta({ param: { name, in: 'path' } });
  return z.object({ [name]: id } as Record<Name, typeof id>);
}

/** Paging query parameters. */
export const PagingQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(MAX_PAGE_OFFSET).default(0),
});

// The response shapes are the wire schemas of @dcg/governance-schema, documented through their
// JSON Schema (see wireSchema). Only the template of a registration is documented loosely: the
// OpenAPI generator cannot render some of InfrastructureTemplateSchema's constructs (see
// json-schema-component.ts); the request body documents it in full.

/** `meta.pagination` of list answers, for classic schemas of pages (provisioning plans). */
export const PaginationMetaSchema = wireSchema('PaginationMeta', PaginationMetaWire);
export const PolicySchema = wireSchema('Policy', PolicyWire);
export const PolicyPageSchema = wireSchema('PolicyPage', PolicyPageWire);
export const ResultHistoryPageSchema = wireSchema(
  'EvaluationResultHistory',
  EvaluationResultHistorySchema,
);
export const AcceptedEvaluationResultSchema = wireSchema(
  'AcceptedEvaluationResult',
  AcceptedEvaluationResultWire,
);
export const ContractComplianceViewSchema = wireSchema(
  'ContractCompliance',
  ContractComplianceSchema,
);
export const MarketplaceInstanceViewSchema = wireSchema(
  'MarketplaceInstance',
  MarketplaceInstanceSchema,
);
export const MarketplaceInstanceListViewSchema = wireSchema(
  'MarketplaceInstanceList',
  MarketplaceInstanceListSchema,
);
export const DeployedDescriptorViewSchema = wireSchema(
  'DeployedDescriptor',
  DeployedDescriptorSchema,
);

export const RegisteredTemplateSchema = DomainRegisteredTemplateSchema.extend({
  template: z.record(z.string(), z.unknown()),
}).meta({ id: 'RegisteredTemplate' });

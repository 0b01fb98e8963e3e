import {
  AcceptedEvaluationResultSchema,
  ContractComplianceViewSchema,
  DEFAULT_PAGE_SIZE,
  DeployedDescriptorViewSchema,
  RegisteredTemplateSchema as DomainRegisteredTemplateSchema,
  MAX_ENVIRONMENT_LENGTH,
  MAX_PAGE_OFFSET,
  MAX_PAGE_SIZE,
  MarketplaceInstanceViewSchema,
  PolicySchema,
  StoredEvaluationResultSchema,
} from '@dcg/governance';
import { ProblemSchema } from '@dcg/http-kit';
import { z } from 'zod';

// Response schemas for the OpenAPI document.

/** A problem-details response entry for route definitions. */
export function problem(description: string) {
  return { description, content: { 'application/problem+json': { schema: ProblemSchema } } };
}

/**
 * A wire schema of `@dcg/governance-schema` for a route's OpenAPI entry. Those schemas are written
 * with `zod/mini` (that keeps `@dcg/marketplace-client`'s browser bundle small), which
 * @hono/zod-openapi cannot walk: the route gets a classic zod schema that checks with the wire
 * schema and is documented by its JSON Schema, as component `id`.
 *
 * @example
 * content: { 'application/json': { schema: wireSchema('MarketplaceSearchResult', SearchResultSchema) } }
 */
export function wireSchema<T extends z.core.$ZodType>(id: string, schema: T) {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema);
  return z
    .custom<z.output<T>>((value) => z.safeParse(schema, value).success)
    .meta({ ...jsonSchema, id });
}

/** Security requirement of the guarded endpoints. */
export const bearerSecurity = [{ bearerAuth: [] }];

/** An environment name in a query (the domain's limit). */
export const EnvironmentSchema = z.string().min(1).max(MAX_ENVIRONMENT_LENGTH);

/** Paging query parameters. */
export const PagingQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(MAX_PAGE_OFFSET).default(0),
});

/** `meta.pagination` of list answers. */
export const PaginationMetaSchema = z.object({
  pagination: z.object({
    limit: z.number().int(),
    offset: z.number().int(),
    total: z.number().int(),
    nextOffset: z
      .number()
      .int()
      .optional()
      .describe('The offset of the next page, when more items follow'),
    truncated: z
      .boolean()
      .optional()
      .describe('True when the page was cut short by limits.maxPageBytes, not by limit'),
  }),
});

export const PolicyPageSchema = z
  .object({ data: z.array(PolicySchema), meta: PaginationMetaSchema })
  .meta({ id: 'PolicyPage' });

// The response shapes are the domain's own zod schemas. Only the template of a registration is
// documented loosely: the OpenAPI generator cannot render some of InfrastructureTemplateSchema's
// constructs (see json-schema-component.ts); the request body documents it in full.
export const RegisteredTemplateSchema = DomainRegisteredTemplateSchema.extend({
  template: z.record(z.string(), z.unknown()),
}).meta({ id: 'RegisteredTemplate' });

export {
  AcceptedEvaluationResultSchema,
  ContractComplianceViewSchema,
  DeployedDescriptorViewSchema,
  MarketplaceInstanceViewSchema,
  StoredEvaluationResultSchema,
};

export const ResultHistoryPageSchema = z
  .object({ data: z.array(StoredEvaluationResultSchema), meta: PaginationMetaSchema })
  .meta({ id: 'EvaluationResultHistory' });

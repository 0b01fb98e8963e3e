import type {
  AcceptedEvaluationResult,
  ContractComplianceView,
  MarketplaceInstanceView,
  RegisteredTemplate,
  StoredEvaluationResult,
} from '@dcg/governance';
import { PolicySchema } from '@dcg/governance';
import { ProblemSchema } from '@dcg/http-kit';
import { z } from 'zod';

// Response schemas for the OpenAPI document. `DocumentedTypes` below checks at compile time that
// every domain value is an instance of the schema documenting it, so the two cannot drift.

const IssueSchema = z.object({
  path: z.string().meta({
    description:
      'JSONPath within the submitted body (the array of one result), e.g. `$[0].result.details.results.root[0]`',
  }),
  message: z.string(),
});

/** A problem-details response entry for route definitions. */
export function problem(description: string) {
  return { description, content: { 'application/problem+json': { schema: ProblemSchema } } };
}

/** Security requirement of the guarded endpoints. */
export const bearerSecurity = [{ bearerAuth: [] }];

/** Paging query parameters. */
export const PagingQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
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

export const RegisteredTemplateSchema = z
  .object({
    template: z.record(z.string(), z.unknown()),
    environment: z
      .string()
      .nullable()
      .describe('The environment of this registration; null: it serves every environment'),
    guardian: z.boolean(),
    policies: z.array(
      z.object({
        resourceType: z.string(),
        policyId: z.string(),
        form: z.enum(['create', 'reference']),
      }),
    ),
    registeredAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'RegisteredTemplate' });

export const AcceptedEvaluationResultSchema = z
  .object({
    seq: z.number().int(),
    contractId: z.string(),
    policyId: z.string(),
    environment: z.string(),
    receivedAt: z.string(),
    status: z.enum(['compliant', 'violated', 'unprocessable']),
    detailsConform: z.boolean(),
    message: z.string().optional(),
    schemaErrors: z.array(IssueSchema).optional(),
  })
  .meta({ id: 'AcceptedEvaluationResult' });

export const StoredEvaluationResultSchema = z
  .object({
    seq: z.number().int(),
    contractId: z.string(),
    policyId: z.string(),
    environment: z.string(),
    receivedAt: z.string(),
    submission: z.record(z.string(), z.unknown()),
    detailsConform: z.boolean(),
    status: z.enum(['compliant', 'violated', 'unprocessable']),
  })
  .meta({ id: 'StoredEvaluationResult' });

export const ResultHistoryPageSchema = z
  .object({ data: z.array(StoredEvaluationResultSchema), meta: PaginationMetaSchema })
  .meta({ id: 'EvaluationResultHistory' });

const StatusSchema = z.enum(['compliant', 'violated', 'unprocessable', 'unknown']);

interface TreeNodeDoc {
  key: string;
  name?: string | undefined;
  description?: string | undefined;
  compliant?: boolean | undefined;
  issues?: string[] | undefined;
  children?: TreeNodeDoc[] | undefined;
  target?: string | undefined;
}
const ComplianceTreeNodeSchema: z.ZodType<TreeNodeDoc> = z
  .object({
    key: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    compliant: z.boolean().optional(),
    issues: z.array(z.string()).optional(),
    get children() {
      return z.array(ComplianceTreeNodeSchema).optional();
    },
    target: z.string().optional(),
  })
  .meta({ id: 'ComplianceTreeNode' });

export const ContractComplianceViewSchema = z
  .object({
    contractId: z.string(),
    environment: z.string(),
    status: StatusSchema,
    evaluatedAt: z.string().nullable(),
    policyId: z.string().nullable(),
    summary: z.string().nullable(),
    counts: z.object({ compliant: z.number().int(), failing: z.number().int() }),
    tree: z.array(ComplianceTreeNodeSchema),
    message: z.string().optional(),
    schemaErrors: z.array(IssueSchema).optional(),
  })
  .meta({ id: 'ContractCompliance' });

export const MarketplaceInstanceViewSchema = z
  .object({
    systemId: z.string(),
    name: z.string(),
    kind: z.string(),
    environment: z.string(),
    version: z.string().optional(),
    deployedAt: z.string(),
    components: z.array(
      z.object({
        id: z.string(),
        name: z.string().optional(),
        kind: z.string().optional(),
        dataContract: z.boolean(),
        compliance: z
          .object({ status: StatusSchema, evaluatedAt: z.string().nullable() })
          .optional(),
      }),
    ),
  })
  .meta({ id: 'MarketplaceInstance' });

type Assignable<Schema, Value extends Schema> = Value;
/** Compile-time check only: each domain type fits the schema that documents it. */
export type DocumentedTypes = [
  Assignable<z.output<typeof AcceptedEvaluationResultSchema>, AcceptedEvaluationResult>,
  Assignable<z.output<typeof StoredEvaluationResultSchema>, StoredEvaluationResult>,
  Assignable<z.output<typeof ContractComplianceViewSchema>, ContractComplianceView>,
  Assignable<z.output<typeof MarketplaceInstanceViewSchema>, MarketplaceInstanceView>,
  Assignable<z.output<typeof RegisteredTemplateSchema>, RegisteredTemplate>,
];

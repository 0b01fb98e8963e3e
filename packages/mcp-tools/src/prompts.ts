import { MAX_ENVIRONMENT_LENGTH } from '@dcg/contract-schema';
import { type McpServer, requireScopes } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { describeCompliance } from './compliance-summary';
import type { DcgMcpDeps } from './dcg-mcp-deps';
import { complianceOutput } from './marketplace-tools';
import { dataContractResourceUri } from './resource-list';
import { SCOPES } from './scopes';
import { describeFailure, ToolInputError } from './tool-errors';
import { systemOfComponent } from './urns';

const EnvironmentArgument = z
  .string()
  .min(1)
  .max(MAX_ENVIRONMENT_LENGTH)
  .optional()
  .describe('Environment, e.g. production');

/**
 * Registers the prompts: explain_contract_violation (why a data contract is violated and what to
 * do) and find_data (find data products for a need, check their contracts, relate the glossary).
 *
 * @example
 * registerPrompts(server, deps);
 */
export function registerPrompts(server: McpServer, deps: DcgMcpDeps): void {
  const { marketplace } = deps;

  server.registerPrompt(
    'explain_contract_violation',
    {
      title: 'Explain why a data contract is violated',
      description:
        'Explains, for the people who use a data product, why one of its data contracts is violated (or not), which requirements fail and what to do about it.',
      argsSchema: z.object({
        contractId: z.string().min(1).max(500).describe('Data contract (output port) URN'),
        environment: EnvironmentArgument,
      }),
      scopeChallenge: requireScopes(SCOPES.marketplaceRead),
    },
    async ({ contractId, environment }, ctx) => {
      const signal = ctx.mcpReq.signal;
      try {
        let where = environment;
        if (where === undefined) {
          const systemId = systemOfComponent(contractId);
          const instance = systemId ? await marketplace.getInstance(systemId, { signal }) : null;
          if (!instance)
            throw new ToolInputError(`${contractId} is not deployed; give its environment`);
          where = instance.environment;
        }
        const compliance = await marketplace.getContractCompliance(contractId, where, { signal });
        const output = complianceOutput(compliance);
        return {
          description: `Why ${contractId} is ${compliance.status} in ${where}`,
          messages: [
            {
              role: 'user' as const,
              content: {
                type: 'text' as const,
                text: [
                  `Explain to the consumers and the owners of a data product why its data contract ${contractId} is ${compliance.status} in ${where}.`,
                  'Say in plain words which requirements fail and what the issues mean for someone who reads this data, what the owners should check first, and whether the data can be used meanwhile.',
                  'Use get_component for the contract schema and SLA, and search_knowledge_graph or describe_concepts for business terms you are not sure about.',
                  '',
                  describeCompliance(compliance),
                ].join('\n'),
              },
            },
            {
              role: 'user' as const,
              content: {
                type: 'resource' as const,
                resource: {
                  uri: dataContractResourceUri(where, contractId),
                  mimeType: 'application/json',
                  text: JSON.stringify(output, null, 2),
                },
              },
            },
          ],
        };
      } catch (error) {
        const failure = describeFailure(error);
        if (failure === undefined) throw error;
        throw new ToolInputError(failure);
      }
    },
  );

  server.registerPrompt(
    'find_data',
    {
      title: 'Find data for a need',
      description:
        'Finds the data products that answer a need, checks that their data contracts are healthy, and relates the need to the business glossary.',
      argsSchema: z.object({
        need: z.string().min(1).max(2000).describe('What data you need, in your words'),
        environment: EnvironmentArgument,
      }),
      // It steers the model through both the marketplace and the knowledge graph tools.
      scopeChallenge: requireScopes(SCOPES.marketplaceRead, SCOPES.knowledgeGraphRead),
    },
    ({ need, environment }) => ({
      description: `Find data for: ${need}`,
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'text' as const,
            text: [
              `I need data for this: ${need}`,
              `1. Use search_knowledge_graph to find the business concepts of this need and describe_concepts for their definitions and related concepts.`,
              `2. Use search_marketplace${environment ? ` in environment "${environment}"` : ''} with the need and with those concepts' labels.`,
              '3. For the best matches, use get_system to read their output ports and data contracts (schema, SLA), and get_contract_compliance for each contract I would use.',
              '4. Recommend the output ports to use, say why, and warn me about any contract that is violated, unprocessable or unknown.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}

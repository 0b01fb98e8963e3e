import {
  type McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
  requireScopes,
} from '@modelcontextprotocol/server';
import type { DcgMcpDeps } from './dcg-mcp-deps';
import { complianceOutput } from './marketplace-tools';
import { SCOPES } from './scopes';
import { readSystem } from './system-view';
import { describeFailure, ToolInputError } from './tool-errors';

/** URI of the resource of a deployed system. */
export function systemResourceUri(environment: string, systemId: string): string {
  return `dcg://systems/${encodeURIComponent(environment)}/${encodeURIComponent(systemId)}`;
}

/** URI of the resource of a data contract. */
export function dataContractResourceUri(environment: string, contractId: string): string {
  return `dcg://data-contracts/${encodeURIComponent(environment)}/${encodeURIComponent(contractId)}`;
}

/**
 * Registers the resources: every deployed system (`dcg://systems/{environment}/{systemId}`: its
 * descriptor view with output ports and data contracts) and every data contract
 * (`dcg://data-contracts/{environment}/{contractId}`: the contract and its compliance), both as
 * templates with a list. Need the `marketplace:read` scope.
 *
 * @example
 * registerResources(server, deps);
 */
export function registerResources(server: McpServer, deps: DcgMcpDeps): void {
  const { marketplace, limits, cacheHints } = deps;
  const scopeChallenge = requireScopes(SCOPES.marketplaceRead);

  server.registerResource(
    'system',
    new ResourceTemplate('dcg://systems/{environment}/{systemId}', {
      list: async (ctx) => {
        const instances = await marketplace.listInstances({ signal: ctx.mcpReq.signal });
        return {
          resources: instances.slice(0, limits.maxListedResources).map((instance) => ({
            uri: systemResourceUri(instance.environment, instance.systemId),
            name: instance.systemId,
            title: `${instance.name} (${instance.environment})`,
            description: `System ${instance.systemId} (${instance.kind}) deployed in ${instance.environment}`,
            mimeType: 'application/json',
          })),
        };
      },
    }),
    {
      title: 'Deployed system',
      description:
        'A deployed system (data product): its output ports with their data contracts, its components and their compliance',
      mimeType: 'application/json',
      cacheHint: cacheHints.marketplaceData,
      scopeChallenge,
    },
    async (uri, variables, ctx) => {
      const environment = variable(variables.environment);
      const systemId = variable(variables.systemId);
      const view = await backend(() =>
        readSystem(marketplace, systemId, environment, ctx.mcpReq.signal),
      );
      if (!view)
        throw new ResourceNotFoundError(uri.href, `${systemId} is not deployed in ${environment}`);
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(view, null, 2) },
        ],
      };
    },
  );

  server.registerResource(
    'data-contract',
    new ResourceTemplate('dcg://data-contracts/{environment}/{contractId}', {
      list: async (ctx) => {
        const instances = await marketplace.listInstances({ signal: ctx.mcpReq.signal });
        const resources = instances.flatMap((instance) =>
          instance.components
            .filter((component) => component.dataContract)
            .map((component) => ({
              uri: dataContractResourceUri(instance.environment, component.id),
              name: component.id,
              title: `${component.name ?? component.id} of ${instance.name} (${instance.environment})`,
              description: `Data contract ${component.id}: ${component.compliance?.status ?? 'unknown'}`,
              mimeType: 'application/json',
            })),
        );
        return { resources: resources.slice(0, limits.maxListedResources) };
      },
    }),
    {
      title: 'Data contract',
      description:
        'A data contract (output port): its schema, SLA and terms, and its compliance with failing requirements',
      mimeType: 'application/json',
      cacheHint: cacheHints.marketplaceData,
      scopeChallenge,
    },
    async (uri, variables, ctx) => {
      const environment = variable(variables.environment);
      const contractId = variable(variables.contractId);
      const signal = ctx.mcpReq.signal;
      const compliance = await backend(() =>
        marketplace.getContractCompliance(contractId, environment, { signal }),
      );
      const instances = await backend(() => marketplace.listInstances({ environment, signal }));
      const instance = instances.find((i) =>
        i.components.some((c) => c.id === contractId && c.dataContract),
      );
      if (!instance)
        throw new ResourceNotFoundError(
          uri.href,
          `${contractId} is not a deployed data contract in ${environment}`,
        );
      const view = await backend(() =>
        readSystem(marketplace, instance.systemId, environment, signal),
      );
      const component = view?.outputPorts.find((c) => c.id === contractId);
      const body = {
        contractId,
        environment,
        systemId: instance.systemId,
        systemName: instance.name,
        ...(component?.name === undefined ? {} : { name: component.name }),
        ...(component?.dataContract === undefined ? {} : { dataContract: component.dataContract }),
        compliance: complianceOutput(compliance),
        ...(view?.note ? { note: view.note } : {}),
      };
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) },
        ],
      };
    },
  );
}

function variable(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ToolInputError(`"${raw}" is not a valid URI component`);
  }
}

/** A backend failure while reading a resource becomes an error whose message a person understands. */
async function backend<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const failure = describeFailure(error);
    if (failure === undefined) throw error;
    throw new ToolInputError(failure);
  }
}

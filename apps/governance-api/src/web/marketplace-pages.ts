import {
  catalogOverview,
  findDataContract,
  INSTANCE_COMPLIANCE_ORDER,
  MAX_ID_LENGTH,
  type MarketplaceInstanceView,
  type MarketplaceReadModel,
  type Policy,
  parseComplianceFilter,
} from '@dcg/governance';
import { pageShellStyleSource } from '@dcg/http-kit';
import type { MarketplaceSearch } from '@dcg/marketplace-search';
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { contractHelpPage } from './contract-help-page';
import { findContractLocations } from './contract-locations';
import { CONTRACT_PAGE_HISTORY, contractPage } from './contract-page';
import { historyPage } from './history-page';
import { instancesPage } from './instances-page';
import { historyHref as historyHrefOf, instanceAnchor } from './marketplace-links';
import { type Markup, markup } from './markup';
import { notFoundPage } from './not-found-page';
import { policyPage } from './policy-page';
import { resultPage } from './result-page';
import { SEARCH_HELP_PATH, searchHelpPage } from './search-help-page';
import { MARKETPLACE_STYLES } from './styles';
import { systemPage } from './system-page';

// The pages load nothing and run no script: the policy allows exactly the one inline stylesheet.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${pageShellStyleSource(MARKETPLACE_STYLES)}`,
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Answers a page with its security headers. Set here rather than by a `/marketplace/*` middleware,
 * which the app would also run for any other route it mounts under that prefix.
 */
function htmlPage(c: Context, page: Markup, status: ContentfulStatusCode = 200): Response {
  if (status >= 400 && wantsJson(c)) {
    // The page's words are its help; the JSON twin answers a problem with the same status.
    const title = /<h1[^>]*>([^<]*)<\/h1>/.exec(String(page))?.[1] ?? 'Request failed';
    return problemTwin(c, status, title, `See ${c.req.path} in a browser for help.`);
  }
  c.header('Vary', 'Accept');
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'same-origin');
  // Statuses change with every submitted result: always revalidate.
  c.header('Cache-Control', 'no-cache');
  return c.html(page, status);
}

/**
 * Whether the request asks for the page's JSON twin: `?format=json`, or an `Accept` that prefers
 * `application/json` to HTML (a browser's `text/html, …, *\/*` does not).
 */
function wantsJson(c: Context): boolean {
  if (c.req.query('format') === 'json') return true;
  const accept = c.req.header('accept') ?? '';
  const json = accept.indexOf('application/json');
  const html = accept.indexOf('text/html');
  return json >= 0 && (html < 0 || json < html);
}

/** The JSON twin of a page, with the headers of the JSON API. */
function jsonTwin(c: Context, body: unknown, status: ContentfulStatusCode = 200): Response {
  c.header('Cache-Control', 'no-cache');
  c.header('Vary', 'Accept');
  return c.json(body as object, status);
}

/** A problem (RFC 9457) for the JSON twin of a page that answers 4xx. */
function problemTwin(c: Context, status: ContentfulStatusCode, title: string, detail: string) {
  c.header('Vary', 'Accept');
  return c.body(
    JSON.stringify({ type: 'about:blank', title, status, detail, instance: c.req.path }),
    status,
    {
      'content-type': 'application/problem+json',
    },
  );
}

/** An absent or blank query parameter counts as not given. */
function queryValue(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * Options of {@link marketplacePages}.
 *
 * @example
 * const options: MarketplacePagesOptions = { search: marketplaceSearch, pageSize: 20 };
 */
export interface MarketplacePagesOptions {
  /** The marketplace search behind the list page's search box (absent: no search box results). */
  search?: Pick<MarketplaceSearch, 'search'>;
  /** Instances per list page (default 20). */
  pageSize?: number;
  /** Results per page of a contract's result history (default 50). */
  historyPageSize?: number;
}

/** A 1-based page number from the query: anything else is page 1. */
function pageNumber(value: string | undefined): number {
  const page = Number.parseInt(value ?? '1', 10);
  return Number.isFinite(page) && page > 0 ? page : 1;
}

const MAX_SEARCH_HITS = 50;

/**
 * The server-rendered marketplace pages: `GET /marketplace` (instances with their contracts'
 * status, `?environment=` filter) and `GET /marketplace/data-contracts/:contractId?environment=`
 * (status badge, error summary, records tree). Mount it on the app with `app.route('/', ...)`.
 *
 * @example
 * app.route('/', marketplacePages(readModel));
 */
export function marketplacePages(
  readModel: MarketplaceReadModel,
  options: MarketplacePagesOptions = {},
): Hono {
  const pages = new Hono();
  const pageSize = options.pageSize ?? 20;

  const historyPageSize = options.historyPageSize ?? 50;
  const policiesById = async (ids: Iterable<string | null>) => {
    const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
    return new Map<string, Policy>(
      (await readModel.getPolicies(wanted)).map((policy) => [policy.id, policy]),
    );
  };

  // The read model finds the instances deploying a contract from an index, not by reading all.
  const locations = async (contractId: string, environment?: string) =>
    findContractLocations(
      await readModel.findContractInstances(contractId, environment),
      contractId,
    );

  pages.get('/marketplace', async (c) => {
    const environment = queryValue(c.req.query('environment'));
    const query = queryValue(c.req.query('q'))?.slice(0, 512);
    const requestedPage = Number.parseInt(c.req.query('page') ?? '1', 10);
    const all = await readModel.listInstances({});
    const environments = [...new Set(all.map((instance) => instance.environment))].sort();
    // One read for both the filter's choices and the instances shown.
    let instances =
      environment === undefined
        ? all
        : all.filter((instance) => instance.environment === environment);
    let reasons: Map<string, string> | undefined;
    let searchNote: string | undefined;
    if (query !== undefined && options.search) {
      // One search over the environments in scope (all without a filter): the hits best first,
      // each with why it matched, ranked as the API and the MCP tool rank them.
      const byAnchor = new Map(
        instances.map((i) => [instanceAnchor(i.systemId, i.environment), i] as const),
      );
      const result = await options.search.search({
        q: query,
        ...(environment === undefined ? {} : { environment }),
        limit: MAX_SEARCH_HITS,
      });
      reasons = new Map(result.hits.map((h) => [instanceAnchor(h.systemId, h.environment), h.why]));
      instances = result.hits
        .map((h) => byAnchor.get(instanceAnchor(h.systemId, h.environment)))
        .filter((i): i is MarketplaceInstanceView => i !== undefined);
      if (result.mode === 'lexical' && result.fallback)
        searchNote = `Matched by words only: ${result.fallback}.`;
    }
    // The state filter and counts (the API's vocabulary); without a search, worst state first.
    const compliance = parseComplianceFilter(c.req.queries('compliance') ?? []);
    const chosen = compliance.success ? compliance.data : [];
    const overview = catalogOverview(instances, { compliance: chosen });
    instances =
      query !== undefined && options.search
        ? instances.filter((i) => overview.instances.includes(i))
        : overview.instances;
    const complianceError = compliance.success
      ? undefined
      : `Unknown compliance state ${compliance.unknown.map((v) => `“${v}”`).join(', ')}: choose one of ${INSTANCE_COMPLIANCE_ORDER.join(', ')}.`;
    const pageCount = Math.max(1, Math.ceil(instances.length / pageSize));
    const page = Number.isFinite(requestedPage)
      ? Math.min(Math.max(1, requestedPage), pageCount)
      : 1;
    const shown = instances.slice((page - 1) * pageSize, page * pageSize);
    const unknownEnvironment = environment !== undefined && !environments.includes(environment);
    if (wantsJson(c)) {
      if (complianceError) return problemTwin(c, 400, 'Invalid compliance filter', complianceError);
      if (unknownEnvironment) {
        return problemTwin(
          c,
          404,
          'Unknown environment',
          `Nothing is deployed in the environment ${environment}; known: ${environments.join(', ')}.`,
        );
      }
      return jsonTwin(c, {
        data: shown,
        counts: overview.counts,
        meta: { pagination: { page, pageCount, pageSize, total: instances.length } },
      });
    }
    const pageModel = instancesPage({
      instances: shown,
      counts: overview.counts,
      ...(chosen.length > 0 ? { compliance: chosen } : {}),
      ...(complianceError ? { complianceError } : {}),
      environments,
      total: instances.length,
      page,
      pageCount,
      ...(environment === undefined ? {} : { environment }),
      ...(query === undefined || !options.search ? {} : { query }),
      ...(reasons ? { reasons } : {}),
      ...(searchNote ? { searchNote } : {}),
    });
    return htmlPage(c, pageModel, complianceError ? 400 : unknownEnvironment ? 404 : 200);
  });

  // Addresses people type or trim: the list page is the index of everything below it.
  for (const alias of [
    '/marketplace/',
    '/marketplace/data-contracts',
    '/marketplace/data-contracts/',
    '/marketplace/systems',
    '/marketplace/systems/',
  ]) {
    pages.get(alias, (c) => {
      const query = new URL(c.req.url).search;
      return c.redirect(`/marketplace${query}`, 301);
    });
  }

  /** The contract with where it is deployed, or the 404 page that says why there is none. */
  const lookUpContract = async (contractId: string, environment: string) => {
    const found =
      contractId.length > MAX_ID_LENGTH
        ? ({ kind: 'unknown' } as const)
        : await findDataContract(readModel, contractId, environment);
    switch (found.kind) {
      case 'unknown':
        return {
          kind: found.kind,
          page: contractHelpPage(
            contractId,
            { kind: 'not-found', environment },
            await locations(contractId),
          ),
        };
      case 'not-a-data-contract':
        return {
          kind: found.kind,
          page: contractHelpPage(
            contractId,
            {
              kind: 'not-a-data-contract',
              environment,
              instance: found.instance,
              component: found.component,
            },
            [],
          ),
        };
      default:
        return {
          kind: found.kind,
          view: found.compliance,
          placement: findContractLocations(found.instances, contractId)[0],
        };
    }
  };

  /**
   * The contract a contract route asks for, or the page that answers instead: 400 without an
   * environment, 404 for an unknown id or a component that is not a data contract.
   */
  const contractRequest = async (c: Context) => {
    const contractId = c.req.param('contractId') ?? '';
    const environment = queryValue(c.req.query('environment'));
    if (environment === undefined) {
      const deployedIn =
        contractId.length > MAX_ID_LENGTH ? [] : await readModel.findContractInstances(contractId);
      const places = findContractLocations(deployedIn, contractId);
      // Deployed only as a component that is not a data contract: no environment makes it one.
      const instance = places.length === 0 ? deployedIn[0] : undefined;
      const component = instance?.components.find((candidate) => candidate.id === contractId);
      if (instance && component) {
        return htmlPage(
          c,
          contractHelpPage(
            contractId,
            { kind: 'not-a-data-contract', environment: instance.environment, instance, component },
            [],
          ),
          404,
        );
      }
      return htmlPage(
        c,
        contractHelpPage(contractId, { kind: 'environment-required' }, places),
        400,
      );
    }
    const found = await lookUpContract(contractId, environment);
    if (found.kind !== 'data-contract') return htmlPage(c, found.page, 404);
    return { contractId, environment, view: found.view, placement: found.placement };
  };

  pages.get(SEARCH_HELP_PATH, (c) => htmlPage(c, searchHelpPage()));

  pages.get('/marketplace/data-contracts/:contractId', async (c) => {
    const request = await contractRequest(c);
    if (request instanceof Response) return request;
    const { contractId, environment, view, placement } = request;
    const history = await readModel.listContractStates(contractId, environment, {
      limit: CONTRACT_PAGE_HISTORY,
      offset: 0,
    });
    const [contract, guards] = await Promise.all([
      readModel.getDataContract(contractId, environment),
      readModel.getContractGuards(contractId, environment),
    ]);
    if (wantsJson(c)) {
      return jsonTwin(c, { ...view, dataContract: contract, guards, history: history.data });
    }
    const policies = await policiesById([
      view.policyId,
      ...history.data.map((state) => state.policyId),
      ...guards.map((guard) => guard.policyId),
    ]);
    return htmlPage(
      c,
      contractPage(view, placement, {
        policies,
        history: { states: history.data, total: history.meta.pagination.total },
        contract,
        guards,
      }),
    );
  });

  pages.get('/marketplace/data-contracts/:contractId/history', async (c) => {
    const request = await contractRequest(c);
    if (request instanceof Response) return request;
    const { contractId, environment, placement } = request;
    const requested = pageNumber(c.req.query('page'));
    const read = (page: number) =>
      readModel.listContractStates(contractId, environment, {
        limit: historyPageSize,
        offset: (page - 1) * historyPageSize,
      });
    let result = await read(requested);
    const total = result.meta.pagination.total;
    const pageCount = Math.max(1, Math.ceil(total / historyPageSize));
    // A page beyond the last shows the last one.
    const page = Math.min(requested, pageCount);
    if (page !== requested) result = await read(page);
    if (wantsJson(c)) return jsonTwin(c, result);
    return htmlPage(
      c,
      historyPage({
        contractId,
        ...(placement?.component.name === undefined ? {} : { title: placement.component.name }),
        environment,
        states: result.data,
        total,
        page,
        pageCount,
        pageSize: historyPageSize,
        policies: await policiesById(result.data.map((state) => state.policyId)),
      }),
    );
  });

  pages.get('/marketplace/systems/:systemId', async (c) => {
    const systemId = c.req.param('systemId');
    const environment = queryValue(c.req.query('environment'));
    const instance =
      systemId.length > MAX_ID_LENGTH ? null : await readModel.getInstance(systemId, environment);
    if (instance === null) {
      return htmlPage(
        c,
        notFoundPage(
          'System not found',
          markup`<p>No system <code>${systemId}</code> is deployed${environment === undefined ? '' : markup` in the environment <strong>${environment}</strong>`}.</p>`,
        ),
        404,
      );
    }
    if (wantsJson(c)) return jsonTwin(c, instance);
    return htmlPage(c, systemPage(instance));
  });

  pages.get('/marketplace/policies/:policyId', async (c) => {
    const policyId = c.req.param('policyId');
    const [policy] = policyId.length > MAX_ID_LENGTH ? [] : await readModel.getPolicies([policyId]);
    if (policy === undefined) {
      return htmlPage(
        c,
        notFoundPage(
          'Policy not found',
          markup`<p>There is no policy <code>${policyId}</code>.</p>`,
        ),
        404,
      );
    }
    const guarded = await readModel.listGuardedContracts(policy.id);
    if (wantsJson(c)) return jsonTwin(c, { ...policy, guardedContracts: guarded });
    return htmlPage(c, policyPage(policy, guarded));
  });

  pages.get('/marketplace/data-contracts/:contractId/results/:seq', async (c) => {
    const request = await contractRequest(c);
    if (request instanceof Response) return request;
    const { contractId, environment, placement } = request;
    const seq = Number(c.req.param('seq'));
    const view =
      Number.isSafeInteger(seq) && seq > 0
        ? await readModel.getResultCompliance(contractId, environment, seq)
        : null;
    if (view === null) {
      return htmlPage(
        c,
        notFoundPage(
          'Result not found',
          markup`<p>The data contract <code>${contractId}</code> has no result number <code>${c.req.param('seq')}</code> in the environment <strong>${environment}</strong>. <a href="${historyHrefOf(contractId, environment)}">See its result history</a>.</p>`,
        ),
        404,
      );
    }
    if (wantsJson(c)) return jsonTwin(c, { seq, ...view });
    const policies = await policiesById([view.policyId]);
    return htmlPage(c, resultPage({ seq, view, policies, ...(placement ? { placement } : {}) }));
  });

  return pages;
}

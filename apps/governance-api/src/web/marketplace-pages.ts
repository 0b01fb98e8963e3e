import { createHash } from 'node:crypto';
import type { MarketplaceReadModel } from '@dcg/governance';
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { contractHelpPage } from './contract-help-page';
import { findContractLocations } from './contract-locations';
import { contractPage } from './contract-page';
import { instancesPage } from './instances-page';
import type { Markup } from './markup';
import { MARKETPLACE_STYLES } from './styles';

// The pages load nothing and run no script: the policy allows exactly the one inline stylesheet.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(MARKETPLACE_STYLES).digest('base64')}'`,
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
  c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'same-origin');
  // Statuses change with every submitted result: always revalidate.
  c.header('Cache-Control', 'no-cache');
  return c.html(page, status);
}

/** An absent or blank query parameter counts as not given. */
function queryValue(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The server-rendered marketplace pages: `GET /marketplace` (instances with their contracts'
 * status, `?environment=` filter) and `GET /marketplace/data-contracts/:contractId?environment=`
 * (status badge, error summary, records tree). Mount it on the app with `app.route('/', ...)`.
 *
 * @example
 * app.route('/', marketplacePages(readModel));
 */
export function marketplacePages(readModel: MarketplaceReadModel): Hono {
  const pages = new Hono();

  // The read model finds the instances deploying a contract from an index, not by reading all.
  const locations = async (contractId: string, environment?: string) =>
    findContractLocations(
      await readModel.findContractInstances(contractId, environment),
      contractId,
    );

  pages.get('/marketplace', async (c) => {
    const environment = queryValue(c.req.query('environment'));
    const all = await readModel.listInstances({});
    const environments = [...new Set(all.map((instance) => instance.environment))].sort();
    // One read for both the filter's choices and the instances shown.
    const instances =
      environment === undefined
        ? all
        : all.filter((instance) => instance.environment === environment);
    const page = instancesPage({
      instances,
      environments,
      ...(environment === undefined ? {} : { environment }),
    });
    const unknownEnvironment = environment !== undefined && !environments.includes(environment);
    return htmlPage(c, page, unknownEnvironment ? 404 : 200);
  });

  // Addresses people type or trim: the list page is the index of everything below it.
  for (const alias of [
    '/marketplace/',
    '/marketplace/data-contracts',
    '/marketplace/data-contracts/',
  ]) {
    pages.get(alias, (c) => {
      const query = new URL(c.req.url).search;
      return c.redirect(`/marketplace${query}`, 301);
    });
  }

  pages.get('/marketplace/data-contracts/:contractId', async (c) => {
    const contractId = c.req.param('contractId');
    const environment = queryValue(c.req.query('environment'));
    if (environment === undefined) {
      return htmlPage(
        c,
        contractHelpPage(contractId, { kind: 'environment-required' }, await locations(contractId)),
        400,
      );
    }
    const [view, placement] = await Promise.all([
      readModel.getContractCompliance(contractId, environment),
      locations(contractId, environment).then((found) => found[0]),
    ]);
    if (placement === undefined && view.status === 'unknown') {
      return htmlPage(
        c,
        contractHelpPage(
          contractId,
          { kind: 'not-found', environment },
          await locations(contractId),
        ),
        404,
      );
    }
    return htmlPage(c, contractPage(view, placement));
  });

  return pages;
}

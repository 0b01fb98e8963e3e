import type { CurrentResultStatus, Policy } from '@dcg/governance';
import { contractHref, historyHref, marketplaceHref } from './marketplace-links';
import { type Markup, markup } from './markup';
import { pageLayout } from './page-layout';
import { resultTimeline } from './result-timeline';

/** One page of a contract's result history. */
export interface HistoryPageModel {
  contractId: string;
  /** The contract's display name, when it is deployed. */
  title?: string;
  environment: string;
  states: CurrentResultStatus[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
  policies: ReadonlyMap<string, Policy>;
}

/**
 * The result history of a data contract in one environment, newest first, one page at a time.
 *
 * @example
 * const page = historyPage({ contractId, environment: 'production', states, total: 120, page: 2, pageCount: 3, pageSize: 50, policies });
 */
export function historyPage(model: HistoryPageModel): Markup {
  const title = model.title ?? model.contractId;
  const first = (model.page - 1) * model.pageSize + 1;
  const last = first + model.states.length - 1;
  const nav = markup`<nav class="pages" aria-label="Pages">${
    model.page > 1
      ? markup`<a href="${historyHref(model.contractId, model.environment, model.page - 1)}" rel="prev">Newer results</a>`
      : ''
  } <span>Page ${String(model.page)} of ${String(model.pageCount)}</span> ${
    model.page < model.pageCount
      ? markup`<a href="${historyHref(model.contractId, model.environment, model.page + 1)}" rel="next">Older results</a>`
      : ''
  }</nav>`;
  const main = markup`<h1>Result history of ${title}</h1>
<p><a href="${contractHref(model.contractId, model.environment)}">Back to the data contract</a> · <a href="${historyHref(model.contractId, model.environment, model.page)}&amp;format=json" type="application/json">These results as JSON</a></p>
<p class="muted">Open a result's time to see its records.</p>
<p role="status">${
    model.total === 0
      ? `No results in environment ${model.environment} yet.`
      : `Results ${first} to ${last} of ${model.total} in environment ${model.environment}, newest first.`
  }</p>
${model.states.length > 0 ? resultTimeline({ states: model.states, total: model.total, offset: first - 1, policies: model.policies, label: 'Results', contract: { contractId: model.contractId, environment: model.environment } }) : ''}
${model.pageCount > 1 ? nav : ''}`;
  return pageLayout({
    title: `Result history: ${title} (${model.environment})`,
    breadcrumbs: [
      { label: 'Marketplace', href: marketplaceHref(model.environment) },
      { label: title, href: contractHref(model.contractId, model.environment) },
      { label: 'Result history' },
    ],
    main,
    jsonHref: `${historyHref(model.contractId, model.environment, model.page)}&format=json`,
  });
}

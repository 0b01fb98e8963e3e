import { describeDetailsIssue, UNPROCESSABLE_MESSAGE } from '@dcg/contract-schema';
import type {
  ContractComplianceView,
  CurrentResultStatus,
  MarketplaceInstanceView,
  Policy,
} from '@dcg/governance';
import { complianceTree } from './compliance-tree';
import { formatTimestamp } from './format-timestamp';
import {
  complianceApiHref,
  contractHref,
  historyHref,
  marketplaceHref,
  systemHref,
} from './marketplace-links';
import { type Markup, markup } from './markup';
import { pageLayout } from './page-layout';
import { policyLink } from './policy-link';
import { resultTimeline } from './result-timeline';
import { STATUS_LABELS, statusBadge } from './status-badge';
import { technicalInformationCard } from './technical-information-card';

/** Where the contract is deployed, when the marketplace knows it (shown as name and back link). */
export interface ContractPlacement {
  instance: Pick<MarketplaceInstanceView, 'systemId' | 'name' | 'kind'>;
  component: { id: string; name?: string; kind?: string; publicInfo?: Record<string, unknown> };
  /** Display names of the instance's components, to title subcomponent targets. */
  componentNames?: ReadonlyMap<string, string>;
}

/** What the contract page shows beside the compliance view. */
export interface ContractPageExtras {
  /** The policies the page names (of the view and of the history), by id. */
  policies?: ReadonlyMap<string, Policy>;
  /** The latest result states, newest first, and how many results there are in all. */
  history?: { states: CurrentResultStatus[]; total: number };
}

function statusSection(view: ContractComplianceView, placement?: ContractPlacement): Markup {
  switch (view.status) {
    case 'unprocessable': {
      const errors = view.schemaErrors ?? [];
      return markup`<section class="alert" role="alert" aria-labelledby="unprocessable-heading">
<h2 id="unprocessable-heading">${UNPROCESSABLE_MESSAGE}</h2>
${view.message && view.message !== UNPROCESSABLE_MESSAGE ? markup`<p>${view.message}</p>` : ''}
<p>The details of the latest evaluation result do not conform to the result details schema, so the compliance status cannot be shown. The guardian that sent it must send a corrected result. Each error says where it is in the details: the records of the data contract (root) or of a subcomponent, then the record by its position.</p>
${
  errors.length > 0
    ? markup`<h3 id="schema-errors-heading">Schema errors</h3>
<ul class="schema-errors" aria-labelledby="schema-errors-heading">${errors.map((error) => {
        const told = describeDetailsIssue(error);
        return markup`<li><span class="where">${told.location}</span>: ${told.sentence}</li>`;
      })}</ul>`
    : ''
}
</section>`;
    }
    case 'unknown':
      return markup`<section aria-labelledby="no-results-heading">
<h2 id="no-results-heading">No monitoring results yet</h2>
<p>No guardian has submitted an evaluation result for this data contract in the environment <strong>${view.environment}</strong>. The status appears here once one arrives.</p>
</section>`;
    default: {
      const summary =
        view.status === 'violated'
          ? markup`<section aria-labelledby="summary-heading">
<h2 id="summary-heading">Error summary</h2>
${
  view.summary
    ? markup`<p class="summary">${view.summary}</p>`
    : view.counts.failing > 0
      ? markup`<p class="summary">The guardian reported a violation without a summary; the failing requirements are listed below.</p>`
      : markup`<p class="summary">The guardian reported a violation without a summary.</p>`
}
</section>`
          : view.summary
            ? markup`<section aria-labelledby="summary-heading"><h2 id="summary-heading">Notes</h2><p>${view.summary}</p></section>`
            : '';
      return markup`${summary}
<section aria-labelledby="records-heading">
<h2 id="records-heading">Records</h2>
${
  view.tree.length > 0
    ? complianceTree(
        view.tree,
        placement?.componentNames ? { targetNames: placement.componentNames } : {},
      )
    : markup`<p class="muted">The latest result carries no validation records.</p>`
}
</section>`;
    }
  }
}

/**
 * The page of one data contract: status badge, facts, and by status the error summary and the
 * records tree, the "cannot be processed" alert with schema errors, or a note that no result arrived.
 *
 * @example
 * const page = contractPage(view, { instance, component });
 */
function overrideNote(view: ContractComplianceView): Markup | string {
  if (view.override === undefined) return '';
  return markup`<p class="override" role="note" data-override="${view.override.code}"><strong>The verdict overrides the records.</strong> ${view.override.message}</p>`;
}

/** Result states shown on the contract page; the others are on its history pages. */
export const CONTRACT_PAGE_HISTORY = 10;

function historySection(
  view: ContractComplianceView,
  history: NonNullable<ContractPageExtras['history']>,
  policies: ReadonlyMap<string, Policy>,
): Markup | string {
  if (history.total === 0) return '';
  const shown = history.states.slice(0, CONTRACT_PAGE_HISTORY);
  return markup`<section aria-labelledby="history-heading">
<h2 id="history-heading">Result history</h2>
<p class="muted">${
    history.total > shown.length
      ? `The latest ${shown.length} of ${history.total} results, newest first.`
      : `${history.total} result${history.total === 1 ? '' : 's'}, newest first.`
  }</p>
${resultTimeline({ states: shown, total: history.total, offset: 0, policies, label: 'Latest results' })}
${
  history.total > shown.length
    ? markup`<p><a href="${historyHref(view.contractId, view.environment, 2)}">Earlier results</a> · <a href="${historyHref(view.contractId, view.environment)}">All ${String(history.total)} results</a></p>`
    : ''
}
</section>`;
}

export function contractPage(
  view: ContractComplianceView,
  placement?: ContractPlacement,
  extras: ContractPageExtras = {},
): Markup {
  const policies = extras.policies ?? new Map<string, Policy>();
  const title = placement?.component.name ?? view.contractId;
  const facts = markup`<dl class="facts">
<dt>Data contract</dt><dd><code>${view.contractId}</code></dd>
${
  placement
    ? markup`<dt>System</dt><dd><a href="${systemHref(placement.instance.systemId, view.environment)}">${placement.instance.name}</a> <span class="muted">(${placement.instance.kind})</span></dd>
<dt>Component</dt><dd><a href="${systemHref(placement.instance.systemId, view.environment, placement.component.id)}">${placement.component.name ?? placement.component.id}</a>${placement.component.kind ? markup` <span class="muted">(${placement.component.kind})</span>` : ''}</dd>`
    : ''
}
<dt>Environment</dt><dd>${view.environment}</dd>
<dt>Policy</dt><dd>${view.policyId === null ? markup`<span class="muted">none yet</span>` : policyLink(view.policyId, policies)}</dd>
<dt>Last evaluated</dt><dd>${view.evaluatedAt === null ? markup`<span class="muted">never</span>` : formatTimestamp(view.evaluatedAt)}</dd>
${
  view.status === 'compliant' || view.status === 'violated'
    ? markup`<dt>Requirements</dt><dd>${view.counts.compliant} met, ${view.counts.failing} failing${view.override ? markup` <span class="muted">(the guardian's verdict decides the status)</span>` : ''}</dd>`
    : ''
}
</dl>
<p class="muted"><a href="${complianceApiHref(view.contractId, view.environment)}" type="application/json">This status as JSON</a></p>`;
  const main = markup`<h1>Data contract ${title}</h1>
<p>${statusBadge(view.status, { large: true })}</p>
${overrideNote(view)}
${facts}
${technicalInformationCard(placement?.component.publicInfo, 'tech-info-heading', 2)}
${statusSection(view, placement)}
${extras.history ? historySection(view, extras.history, policies) : ''}`;
  return pageLayout({
    // The status leads the title, so a tab or a bookmark tells it at a glance.
    title: `${STATUS_LABELS[view.status]}: ${title} (${view.environment})`,
    breadcrumbs: [
      { label: 'Marketplace', href: marketplaceHref(view.environment) },
      { label: title, href: contractHref(view.contractId, view.environment) },
    ],
    main,
  });
}

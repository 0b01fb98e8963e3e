import {
  type ComplianceTreeNode,
  describeDetailsIssue,
  type RequirementVerdict,
  requirementsOf,
  requirementVerdict,
  UNPROCESSABLE_MESSAGE,
} from '@dcg/contract-schema';
import {
  type ContractComplianceView,
  type ContractGuard,
  type CurrentResultStatus,
  type DataContractView,
  type MarketplaceInstanceView,
  type Policy,
  requirementColumn,
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
  /** The contract itself as deployed (schema, quality rules, SLA), when the component has one. */
  contract?: DataContractView | null;
  /** The deployed guardians that guard the contract in this environment. */
  guards?: readonly ContractGuard[];
}

/** How the contract page shows a requirement's verdict: its words and the class that colours them. */
const VERDICT_LOOK: Readonly<Record<RequirementVerdict, { words: string; className: string }>> = {
  compliant: { words: 'met', className: 'outcome-compliant' },
  failing: { words: 'failing', className: 'outcome-failing' },
  warning: { words: 'failing (warning)', className: 'outcome-warning' },
  not_checked: { words: 'not checked', className: 'muted' },
};

/**
 * The contract itself beside the latest outcome of each requirement: the schema (type, required,
 * unique, key) with, per column, the requirements about it and their verdicts; the quality rules;
 * the service levels.
 */
function contractSection(view: ContractComplianceView, contract: DataContractView): Markup {
  const names = contract.columns.map((column) => column.name);
  const latest =
    view.status === 'compliant' || view.status === 'violated' ? requirementsOf(view.tree) : [];
  const byColumn = new Map<string, ComplianceTreeNode[]>();
  for (const requirement of latest) {
    const column = requirementColumn(requirement, names);
    if (column === undefined) continue;
    byColumn.set(column, [...(byColumn.get(column) ?? []), requirement]);
  }
  const outcome = (column: string) => {
    const found = byColumn.get(column) ?? [];
    if (found.length === 0)
      return markup`<span class="muted">${latest.length === 0 ? 'no result yet' : 'no requirement names it'}</span>`;
    return markup`<ul class="outcome-list">${found.map((requirement) => {
      const { words, className } = VERDICT_LOOK[requirementVerdict(requirement)];
      return markup`<li><span class="${className}">${words}</span>: ${requirement.name ?? requirement.key}</li>`;
    })}</ul>`;
  };
  const flags = (column: DataContractView['columns'][number]) =>
    [column.primaryKey ? 'primary key' : column.unique ? 'unique' : ''].filter(Boolean).join(', ');
  const showModel = new Set(contract.columns.map((column) => column.model)).size > 1;
  return markup`<section aria-labelledby="contract-heading">
<h2 id="contract-heading">The contract</h2>
<p class="muted">What the data contract promises, beside the latest outcome of the requirements about each column.</p>
${
  contract.columns.length > 0
    ? markup`<table class="contract-schema"><caption class="visually-hidden">Schema of the data contract</caption>
<thead><tr><th scope="col">Column</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Key</th><th scope="col">Latest outcome</th></tr></thead>
<tbody>${contract.columns.map(
        (column) =>
          markup`<tr data-column="${column.name}"><th scope="row"><code>${showModel && column.model ? `${column.model}.` : ''}${column.name}</code>${column.description ? markup`<div class="muted">${column.description}</div>` : ''}</th><td data-label="Type">${column.type ?? markup`<span class="muted">not declared</span>`}</td><td data-label="Required">${column.required ? 'required' : 'optional'}</td><td data-label="Key">${flags(column) || markup`<span class="muted">none</span>`}</td><td data-label="Latest outcome">${outcome(column.name)}</td></tr>`,
      )}</tbody></table>`
    : markup`<p class="muted">The contract declares no schema.</p>`
}
<h3>Quality rules</h3>
${
  contract.quality.length > 0
    ? markup`<ul>${contract.quality.map(
        (rule) =>
          markup`<li>${rule.column ? markup`<code>${rule.column}</code>: ` : ''}${rule.text}${rule.severity ? ` (severity ${rule.severity})` : ''}${rule.description ? markup` <span class="muted">${rule.description}</span>` : ''}</li>`,
      )}</ul>`
    : markup`<p class="muted">No quality rules besides the schema.</p>`
}
<h3>Service levels</h3>
${
  contract.sla.length > 0
    ? markup`<dl class="facts">${contract.sla.map((entry) => markup`<dt>${entry.name}</dt><dd>${entry.value}</dd>`)}</dl>`
    : markup`<p class="muted">No service levels declared.</p>`
}
</section>`;
}

/** The section that says why no result is shown, and what to do when none ever will arrive. */
function noResultSection(
  view: ContractComplianceView,
  guards: readonly ContractGuard[] | undefined,
  policies: ReadonlyMap<string, Policy>,
): Markup {
  if (guards !== undefined && guards.length === 0) {
    return markup`<section class="alert" aria-labelledby="no-results-heading">
<h2 id="no-results-heading">No guardian guards this data contract</h2>
<p>No deployed guardian monitors this data contract in the environment <strong>${view.environment}</strong>, so no monitoring result will arrive and its status stays unknown.</p>
<p>To monitor it, add a guardian component to the system descriptor whose <code>__dataContractGuardianSpec.guards</code> lists <code>${view.contractId}</code>, with a guardian template that names a policy for the system's resource type, and deploy the system again.</p>
</section>`;
  }
  const guarded = guards ?? [];
  return markup`<section aria-labelledby="no-results-heading">
<h2 id="no-results-heading">No monitoring results yet</h2>
<p>No guardian has submitted an evaluation result for this data contract in the environment <strong>${view.environment}</strong> yet.${
    guarded.length > 0
      ? markup` It is guarded by <code>${guarded.map((guard) => guard.guardianId).join(', ')}</code> under the policy ${guarded.map((guard, i) => markup`${i > 0 ? ', ' : ''}${policyLink(guard.policyId, policies)}`)}; the status appears once that guardian reports.`
      : ''
  }</p>
</section>`;
}

/**
 * The records of a result by its state: the schema errors of an unprocessable one, the summary and
 * the records tree of the others (the contract page and the page of one result show it).
 *
 * @example
 * const section = complianceRecordsSection(view);
 */
export function complianceRecordsSection(
  view: ContractComplianceView,
  placement?: ContractPlacement,
  noResult?: () => Markup,
): Markup {
  return statusSection(view, placement, noResult);
}

function statusSection(
  view: ContractComplianceView,
  placement?: ContractPlacement,
  noResult?: () => Markup,
): Markup {
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
      return noResult ? noResult() : noResultSection(view, undefined, new Map());
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
${resultTimeline({ states: shown, total: history.total, offset: 0, policies, label: 'Latest results', contract: { contractId: view.contractId, environment: view.environment } })}
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
<dt>Policy</dt><dd>${
    view.policyId !== null
      ? policyLink(view.policyId, policies)
      : extras.guards !== undefined && extras.guards.length === 0
        ? markup`<span class="muted">none: no guardian guards it</span>`
        : extras.guards && extras.guards.length > 0
          ? extras.guards.map(
              (guard, i) => markup`${i > 0 ? ', ' : ''}${policyLink(guard.policyId, policies)}`,
            )
          : markup`<span class="muted">none yet</span>`
  }</dd>
<dt>Last evaluated</dt><dd>${view.evaluatedAt === null ? markup`<span class="muted">never</span>` : formatTimestamp(view.evaluatedAt)}</dd>
${
  view.status === 'compliant' || view.status === 'violated'
    ? markup`<dt>Requirements</dt><dd>${view.counts.compliant} met, ${view.counts.failing} failing${view.override ? markup` <span class="muted">(the guardian's verdict decides the status)</span>` : ''}</dd>`
    : ''
}
</dl>
<p class="muted"><a href="${complianceApiHref(view.contractId, view.environment)}" type="application/json">This status as JSON</a> · <a href="${contractHref(view.contractId, view.environment)}&amp;format=json" type="application/json">This page as JSON</a></p>`;
  const main = markup`<h1>Data contract ${title}</h1>
<p>${statusBadge(view.status, { large: true })}</p>
${overrideNote(view)}
${facts}
${technicalInformationCard(placement?.component.publicInfo, 'tech-info-heading', 2)}
${statusSection(view, placement, () => noResultSection(view, extras.guards, policies))}
${extras.contract ? contractSection(view, extras.contract) : ''}
${extras.history ? historySection(view, extras.history, policies) : ''}`;
  return pageLayout({
    // The status leads the title, so a tab or a bookmark tells it at a glance.
    title: `${STATUS_LABELS[view.status]}: ${title} (${view.environment})`,
    breadcrumbs: [
      { label: 'Marketplace', href: marketplaceHref(view.environment) },
      { label: title, href: contractHref(view.contractId, view.environment) },
    ],
    main,
    jsonHref: `${contractHref(view.contractId, view.environment)}&format=json`,
  });
}

import {
  type ComplianceCounts,
  type ComplianceTreeNode,
  requirementTally,
  requirementVerdict,
  sumCounts,
} from '@dcg/contract-schema';
import { type Markup, markup, trusted } from './markup';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function sectionState(tally: ComplianceCounts): string {
  const notChecked = tally.notChecked ?? 0;
  const warnings = tally.warnings ?? 0;
  const total = tally.compliant + tally.failing + notChecked + warnings;
  if (total === 0) return 'no requirements';
  const of = (count: number, what: string) => `${count} of ${plural(total, 'requirement')} ${what}`;
  if (tally.failing > 0) return of(tally.failing, 'failing');
  if (notChecked > 0) return of(notChecked, 'not checked');
  if (warnings > 0) return of(warnings, 'failing as warnings');
  return total === 1 ? 'the requirement is met' : `all ${total} requirements met`;
}

/**
 * Levels of the tree that indent; deeper levels line up with the last indented one and show their
 * level instead, so a deep tree never pushes its records off a narrow screen.
 */
export const MAX_INDENTED_DEPTH = 6;

function depthLabel(depth: number): Markup | string {
  return depth > MAX_INDENTED_DEPTH
    ? markup`<span class="depth" title="Nested ${String(depth)} levels deep">level ${String(depth)}</span> `
    : '';
}

function nodeLabel(node: ComplianceTreeNode, depth: number): Markup {
  const name = node.name ?? node.key;
  const key =
    node.name !== undefined && node.name !== node.key
      ? markup` <code class="node-key">${node.key}</code>`
      : '';
  return markup`${depthLabel(depth)}<span class="node-name">${name}</span>${key}`;
}

function description(node: ComplianceTreeNode): Markup | string {
  return node.description ? markup`<p class="node-description">${node.description}</p>` : '';
}

/** A rendered node with the tally of the requirements in it, so ancestors need not count again. */
interface Rendered {
  html: Markup;
  tally: ComplianceCounts;
}

function sectionItem(
  attributes: Markup,
  label: Markup,
  body: Markup | string,
  rendered: Rendered[],
  depth: number,
): Rendered {
  const tally = sumCounts(rendered.map((child) => child.tally));
  // Sections stay collapsed while all is well and open where something fails or was not checked.
  const open = tally.failing > 0 || (tally.notChecked ?? 0) > 0 || (tally.warnings ?? 0) > 0;
  const state = tally.failing > 0 ? 'failing' : 'compliant';
  const flat = depth >= MAX_INDENTED_DEPTH ? trusted(' class="flat"') : '';
  const list =
    rendered.length > 0 ? markup`<ul${flat}>${rendered.map((child) => child.html)}</ul>` : '';
  return {
    tally,
    html: markup`<li class="section section-${state}" ${attributes}><details${open ? trusted(' open') : ''}><summary>${label} <span class="section-state">${sectionState(tally)}</span></summary>${body}${list}</details></li>`,
  };
}

function issueList(node: ComplianceTreeNode, label: string, none: string): Markup {
  const issues = node.issues ?? [];
  return issues.length > 0
    ? markup`<ul class="issues" aria-label="${label}">${issues.map((issue) => markup`<li>${issue}</li>`)}</ul>`
    : markup`<p class="issues">${none}</p>`;
}

// A4 rule 5: every requirement carries `compliant`, so a requirement is met, failing (as an
// error or as a warning) or, where the guardian says so, not checked; there is no fourth case.
function renderRequirement(node: ComplianceTreeNode, depth: number): Markup {
  const name = node.name ?? node.key;
  const label = markup`<div>${nodeLabel(node, depth)}${description(node)}</div>`;
  switch (requirementVerdict(node)) {
    case 'compliant':
      return markup`<li class="requirement requirement-compliant" data-key="${node.key}"><span class="verdict"><span aria-hidden="true">✓</span> Met</span>${label}</li>`;
    case 'not_checked':
      return markup`<li class="requirement requirement-not-checked" data-key="${node.key}"><span class="verdict"><span aria-hidden="true">?</span> Not checked</span>${label}${issueList(node, `Why ${name} was not checked`, 'The guardian did not say why it did not check this requirement.')}</li>`;
    case 'warning':
      return markup`<li class="requirement requirement-warning" data-key="${node.key}"><span class="verdict"><span aria-hidden="true">!</span> Warning</span>${label}${issueList(node, `Issues of ${name}`, 'No issue was reported for this requirement.')}</li>`;
    case 'failing':
      return markup`<li class="requirement requirement-failing" data-key="${node.key}"><span class="verdict"><span aria-hidden="true">✗</span> Failing</span>${label}${issueList(node, `Issues of ${name}`, 'No issue was reported for this requirement.')}</li>`;
  }
}

function renderNode(node: ComplianceTreeNode, depth: number): Rendered {
  if (!node.section)
    return { html: renderRequirement(node, depth), tally: requirementTally([node]) };
  return sectionItem(
    markup`data-key="${node.key}"`,
    nodeLabel(node, depth),
    description(node),
    (node.children ?? []).map((child) => renderNode(child, depth + 1)),
    depth,
  );
}

/** Consecutive top-level records of the same target (the `results` key they were reported under). */
function groupByTarget(
  nodes: ComplianceTreeNode[],
): Array<{ target: string; nodes: ComplianceTreeNode[] }> {
  const groups: Array<{ target: string; nodes: ComplianceTreeNode[] }> = [];
  for (const node of nodes) {
    const target = node.target ?? 'root';
    const last = groups.at(-1);
    if (last !== undefined && last.target === target) last.nodes.push(node);
    else groups.push({ target, nodes: [node] });
  }
  return groups;
}

function renderTargetGroup(
  group: { target: string; nodes: ComplianceTreeNode[] },
  targetNames: ReadonlyMap<string, string>,
): Rendered {
  const name = targetNames.get(group.target);
  const label =
    group.target === 'root'
      ? markup`<span class="node-name">Data contract</span> <code class="node-key">root</code>`
      : markup`<span class="node-name">${name === undefined ? 'Subcomponent' : `Subcomponent ${name}`}</span> <code class="node-key">${group.target}</code>`;
  return sectionItem(
    markup`data-target="${group.target}"`,
    label,
    '',
    group.nodes.map((node) => renderNode(node, 2)),
    1,
  );
}

/** Options of {@link complianceTree}. */
export interface ComplianceTreeOptions {
  /** Accessible name of the list. */
  label?: string;
  /** Display names of subcomponents, to title the records reported under their URN. */
  targetNames?: ReadonlyMap<string, string>;
}

/**
 * The validation records of a result as a nested list: sections are `<details>` (open only where a
 * requirement fails), requirements show their verdict and, when failing, their issues beside them.
 * Records of several targets (rule A5: `root` and subcomponent URNs) are grouped per target.
 * Works without JavaScript.
 *
 * @example
 * const tree = complianceTree([{ key: 'quality', section: true, children: [{ key: 'amount_not_null', section: false, compliant: false, issues: ['12 null rows'] }] }]);
 */
export function complianceTree(
  nodes: ComplianceTreeNode[],
  options: ComplianceTreeOptions = {},
): Markup {
  const groups = groupByTarget(nodes);
  const names = options.targetNames ?? new Map<string, string>();
  const items =
    groups.length > 1
      ? groups.map((group) => renderTargetGroup(group, names))
      : nodes.map((node) => renderNode(node, 1));
  return markup`<ul class="tree" aria-label="${options.label ?? 'Validation records'}">${items.map((item) => item.html)}</ul>`;
}

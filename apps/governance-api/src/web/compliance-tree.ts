import type { ComplianceTreeNode } from '@dcg/contract-schema';
import { type Markup, markup, trusted } from './markup';

/** Requirements below a node (leaves), split by their verdict. */
interface RequirementTally {
  compliant: number;
  failing: number;
  unreported: number;
}

function leafTally(node: ComplianceTreeNode): RequirementTally {
  if (node.compliant === true) return { compliant: 1, failing: 0, unreported: 0 };
  if (node.compliant === false) return { compliant: 0, failing: 1, unreported: 0 };
  return { compliant: 0, failing: 0, unreported: 1 };
}

function sumTallies(tallies: RequirementTally[]): RequirementTally {
  const total: RequirementTally = { compliant: 0, failing: 0, unreported: 0 };
  for (const tally of tallies) {
    total.compliant += tally.compliant;
    total.failing += tally.failing;
    total.unreported += tally.unreported;
  }
  return total;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function sectionState(tally: RequirementTally): string {
  const total = tally.compliant + tally.failing + tally.unreported;
  if (total === 0) return 'no requirements';
  if (tally.failing > 0) return `${tally.failing} of ${plural(total, 'requirement')} failing`;
  if (tally.unreported > 0)
    return `${tally.unreported} of ${plural(total, 'requirement')} not reported`;
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
  tally: RequirementTally;
}

function sectionItem(
  attributes: Markup,
  label: Markup,
  body: Markup | string,
  rendered: Rendered[],
  depth: number,
): Rendered {
  const tally = sumTallies(rendered.map((child) => child.tally));
  // Sections stay collapsed while all is well and open where something fails or is missing.
  const open = tally.failing > 0 || tally.unreported > 0;
  const state = tally.failing > 0 ? 'failing' : 'compliant';
  const flat = depth >= MAX_INDENTED_DEPTH ? trusted(' class="flat"') : '';
  const list =
    rendered.length > 0 ? markup`<ul${flat}>${rendered.map((child) => child.html)}</ul>` : '';
  return {
    tally,
    html: markup`<li class="section section-${state}" ${attributes}><details${open ? trusted(' open') : ''}><summary>${label} <span class="section-state">${sectionState(tally)}</span></summary>${body}${list}</details></li>`,
  };
}

function renderRequirement(node: ComplianceTreeNode, depth: number): Markup {
  const name = node.name ?? node.key;
  if (node.compliant === true) {
    return markup`<li class="requirement requirement-compliant" data-key="${node.key}"><span class="verdict"><span aria-hidden="true">✓</span> Met</span><div>${nodeLabel(node, depth)}${description(node)}</div></li>`;
  }
  if (node.compliant === false) {
    const issues = node.issues ?? [];
    const list =
      issues.length > 0
        ? markup`<ul class="issues" aria-label="Issues of ${name}">${issues.map((issue) => markup`<li>${issue}</li>`)}</ul>`
        : markup`<p class="issues">No issue was reported for this requirement.</p>`;
    return markup`<li class="requirement requirement-failing" data-key="${node.key}"><span class="verdict"><span aria-hidden="true">✗</span> Failing</span><div>${nodeLabel(node, depth)}${description(node)}</div>${list}</li>`;
  }
  return markup`<li class="requirement requirement-unreported" data-key="${node.key}"><span class="verdict"><span aria-hidden="true">?</span> Not reported</span><div>${nodeLabel(node, depth)}${description(node)}</div></li>`;
}

function renderNode(node: ComplianceTreeNode, depth: number): Rendered {
  if (!node.section) return { html: renderRequirement(node, depth), tally: leafTally(node) };
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

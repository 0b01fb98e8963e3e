import type { ComplianceTreeNode } from '@dcg/contract-schema';
import { describe, expect, it } from 'vitest';
import { type RecordLike, viewTree } from './__fixtures__/marketplace-views';
import { type ComplianceTreeOptions, complianceTree } from './compliance-tree';

const render = (nodes: RecordLike[], options?: ComplianceTreeOptions) =>
  complianceTree(viewTree(nodes), options);

describe('complianceTree', () => {
  it('opens sections with a failing requirement and lists its issues beside it', () => {
    const out = String(
      render([
        {
          key: 'quality',
          name: 'Quality',
          children: [
            { key: 'amount_not_null', compliant: false, issues: ['12 rows have a null amount'] },
            { key: 'id_unique', compliant: true },
          ],
        },
      ]),
    );
    expect(out).toMatch(/<li class="section section-failing" data-key="quality"><details open>/);
    expect(out).toContain('1 of 2 requirements failing');
    const failing = out.slice(out.indexOf('data-key="amount_not_null"'));
    expect(failing).toMatch(
      /^data-key="amount_not_null"><span class="verdict"><span aria-hidden="true">✗<\/span> Failing<\/span><div><span class="node-name">amount_not_null<\/span><\/div><ul class="issues" aria-label="Issues of amount_not_null"><li>12 rows have a null amount<\/li><\/ul><\/li>/,
    );
    expect(out).toMatch(
      /requirement-compliant" data-key="id_unique"><span class="verdict"><span aria-hidden="true">✓<\/span> Met/,
    );
  });

  it('shows a requirement the guardian did not check as not checked, with why, never as failing', () => {
    const out = String(
      render([
        {
          key: 'quality',
          children: [
            { key: 'row_count', compliant: false, checked: false, issues: ['no SQL engine'] },
            { key: 'id_unique', compliant: true },
          ],
        },
      ]),
    );
    expect(out).toContain('data-key="quality"><details open>');
    expect(out).toMatch(/<li class="section section-compliant"/);
    expect(out).toContain('1 of 2 requirements not checked');
    expect(out).toMatch(
      /requirement-not-checked" data-key="row_count"><span class="verdict"><span aria-hidden="true">\?<\/span> Not checked<\/span>.*<ul class="issues" aria-label="Why row_count was not checked"><li>no SQL engine<\/li><\/ul>/,
    );
    expect(out).not.toContain('Failing');
    expect(out).not.toContain('Not reported');
  });

  it('shows a requirement failing with a non-blocking severity as a warning', () => {
    const out = String(
      render([
        {
          key: 'sla',
          children: [
            { key: 'freshness', compliant: false, severity: 'warning', issues: ['3 hours late'] },
            { key: 'latency', compliant: false, issues: ['too slow'] },
          ],
        },
        { key: 'docs', children: [{ key: 'readme', compliant: false, severity: 'info' }] },
      ]),
    );
    expect(out).toContain('1 of 2 requirements failing');
    expect(out).toContain('1 of 1 requirement failing as warnings');
    expect(out).toMatch(
      /requirement-warning" data-key="freshness"><span class="verdict"><span aria-hidden="true">!<\/span> Warning/,
    );
    expect(out).toMatch(/requirement-failing" data-key="latency"/);
    expect(out).toContain('data-key="docs"><details open>');
  });

  it('collapses sections where every requirement is met, nested ones too', () => {
    const out = String(
      render([
        {
          key: 'contract',
          children: [
            { key: 'schema', children: [{ key: 'columns', compliant: true }] },
            { key: 'sla', children: [{ key: 'freshness', compliant: false }] },
          ],
        },
      ]),
    );
    expect(out).toContain('data-key="contract"><details open>');
    expect(out).toContain('data-key="schema"><details><summary>');
    expect(out).toContain('the requirement is met');
    expect(out).toContain('data-key="sla"><details open>');
    expect(out).toContain('No issue was reported for this requirement.');
  });

  it('escapes names, keys, descriptions and issues', () => {
    const out = String(
      render([
        {
          key: '<k>',
          name: '<script>alert(1)</script>',
          description: 'a & b "quoted"',
          children: [
            {
              key: "x' onmouseover='y",
              compliant: false,
              issues: ['<img src=x onerror=alert(1)>'],
            },
          ],
        },
      ]),
    );
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('a &amp; b &quot;quoted&quot;');
    expect(out).toContain('data-key="x&#39; onmouseover=&#39;y"');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('shows the key beside a display name', () => {
    const out = String(render([{ key: 'dataContract', name: 'Data Contract', children: [] }]));
    expect(out).toContain(
      '<span class="node-name">Data Contract</span> <code class="node-key">dataContract</code>',
    );
    expect(out).toContain('no requirements');
  });

  it('groups the records of several targets, and not those of root alone', () => {
    const sub = 'urn:dmb:cmp:a:b:0:sub';
    const grouped = String(
      render([
        { key: 'schema', target: 'root', children: [{ key: 'id', compliant: true }] },
        { key: 'schema', target: sub, children: [{ key: 'id', compliant: false }] },
      ]),
    );
    expect(grouped).toContain(
      'data-target="root"><details><summary><span class="node-name">Data contract</span> <code class="node-key">root</code>',
    );
    expect(grouped).toContain(
      `data-target="${sub}"><details open><summary><span class="node-name">Subcomponent</span> <code class="node-key">${sub}</code> <span class="section-state">1 of 1 requirement failing</span>`,
    );
    const named = String(
      render(
        [
          { key: 'schema', target: 'root', children: [] },
          { key: 'schema', target: sub, children: [] },
        ],
        { targetNames: new Map([[sub, 'Orders <view>']]), label: 'Records of x' },
      ),
    );
    expect(named).toContain('aria-label="Records of x"');
    expect(named).toContain('<span class="node-name">Subcomponent Orders &lt;view&gt;</span>');
    const single = String(
      render([{ key: 'schema', target: 'root', children: [{ key: 'id', compliant: true }] }]),
    );
    expect(single).not.toContain('data-target');
    expect(single).toMatch(
      /^<ul class="tree" aria-label="Validation records"><li class="section section-compliant" data-key="schema">/,
    );
  });
});

describe('complianceTree at depth', () => {
  it('renders a deeply nested chain of sections and counts its requirement once', () => {
    let node: ComplianceTreeNode = {
      key: 'leaf',
      section: false,
      compliant: false,
      issues: ['deep'],
    };
    for (let depth = 0; depth < 500; depth++) {
      node = { key: `s${depth}`, section: true, children: [node] };
    }
    const out = String(complianceTree([node]));
    expect(out.match(/<details open>/g)).toHaveLength(500);
    expect(out.match(/1 of 1 requirement failing/g)).toHaveLength(500);
    expect(out).toContain('<li>deep</li>');
  });
});

describe('complianceTree reads the section flag', () => {
  it('renders a requirement as a requirement and a section as a section, whatever else they carry', () => {
    const out = String(
      complianceTree([
        {
          key: 'root',
          section: true,
          children: [{ key: 'amount', section: false, compliant: false, issues: ['null'] }],
        },
        { key: 'empty', section: true, children: [] },
      ]),
    );
    expect(out).toContain('requirement requirement-failing" data-key="amount"');
    expect(out).toContain('section section-failing" data-key="root"><details open>');
    expect(out).toContain('section section-compliant" data-key="empty"');
  });
});

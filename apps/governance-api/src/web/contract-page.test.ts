import { describe, expect, it } from 'vitest';
import {
  compliantView,
  ordersInstance,
  unprocessableView,
  violatedView,
} from './__fixtures__/marketplace-views';
import { contractPage } from './contract-page';

const placement = {
  instance: ordersInstance,
  component: { id: violatedView.contractId, name: 'Orders port', kind: 'outputport' },
};

describe('contractPage', () => {
  it('renders a violated contract: badge, summary, facts and open failing sections', () => {
    const out = String(contractPage(violatedView, placement));
    expect(out).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(out).toContain('<title>Violated: Orders port (production) · dcg marketplace</title>');
    expect(out).toContain('<h1>Data contract Orders port</h1>');
    expect(out).toContain(
      '<span class="badge badge-violated badge-large" data-status="violated"><span class="visually-hidden">Compliance status: </span><span aria-hidden="true">✗</span> Violated</span>',
    );
    expect(out).toContain('<h2 id="summary-heading">Error summary</h2>');
    expect(out).toContain('<p class="summary">One or more data contract violations detected</p>');
    expect(out).toContain('<dd>2 met, 1 failing</dd>');
    expect(out).toContain('<time datetime="2026-11-22T10:05:09.000Z">2026-11-22 10:05 UTC</time>');
    expect(out).toContain('<code>policy-dataproduct-guardian</code>');
    expect(out).toContain('data-key="quality"><details open>');
    expect(out).toContain('data-key="sla"><details><summary>');
    expect(out).toContain(
      'aria-label="Issues of amount_not_null"><li>12 rows have a null amount</li>',
    );
    expect(out).toContain('<main id="main" tabindex="-1">');
    expect(out).toContain('<nav class="breadcrumb" aria-label="Breadcrumb">');
    expect(out).not.toContain('cannot be processed');
    expect(out).toContain(
      '<a href="/v1/marketplace/data-contracts/urn%3Admb%3Acmp%3Afinance%3Aorders%3A0%3Aorders-port/compliance?environment=production" type="application/json">This status as JSON</a>',
    );
  });

  it('renders a compliant contract with every section collapsed and no error summary', () => {
    const out = String(contractPage(compliantView));
    expect(out).toContain('data-status="compliant"');
    expect(out).toContain('✓</span> Compliant</span>');
    expect(out).not.toContain('Error summary');
    expect(out).not.toMatch(/<details open>/);
    expect(out).toContain('all 2 requirements met');
    // Without a placement the page is titled by the contract id.
    expect(out).toContain(`<h1>Data contract ${compliantView.contractId}</h1>`);
  });

  it('renders unprocessable details as an alert with the schema errors and no tree', () => {
    const out = String(contractPage(unprocessableView));
    expect(out).toContain(
      '<span aria-hidden="true">!</span> Monitoring results cannot be processed</span>',
    );
    expect(out).toContain(
      '<section class="alert" role="alert" aria-labelledby="unprocessable-heading">\n<h2 id="unprocessable-heading">The monitoring results cannot be processed</h2>',
    );
    // Sentences for people, located relative to the details: no JSONPath, no backticks.
    expect(out).toContain(
      '<li><span class="where">root › record 1</span>: This record has both a verdict (“compliant”) and sub-records (“children”): a record is either a requirement or a section, never both.</li>',
    );
    expect(out).toContain(
      '<li><span class="where">root › record 2</span>: This record lists issues but has no verdict: only a requirement (a record with “compliant”) may list issues.</li>',
    );
    const errors = out.slice(out.indexOf('class="schema-errors"'), out.indexOf('</section>'));
    expect(errors).not.toMatch(/\$|`|\.result\./);
    expect(out).not.toContain('class="tree"');
    expect(out).not.toContain('Requirements</dt>');
  });

  it('explains an unknown status', () => {
    const out = String(
      contractPage({
        ...compliantView,
        status: 'unknown',
        evaluatedAt: null,
        policyId: null,
        tree: [],
      }),
    );
    expect(out).toContain('<span aria-hidden="true">?</span> Unknown</span>');
    expect(out).toContain('No monitoring results yet');
    expect(out).toContain('<dt>Last evaluated</dt><dd><span class="muted">never</span></dd>');
  });

  it('says so when a violation comes without a summary or records', () => {
    const out = String(contractPage({ ...violatedView, summary: null, tree: [] }));
    expect(out).toContain('reported a violation without a summary');
    expect(out).toContain('The latest result carries no validation records.');
  });

  it('escapes every value that comes from data', () => {
    const evil = '"><script>alert(1)</script>';
    const out = String(
      contractPage(
        {
          ...unprocessableView,
          contractId: evil,
          environment: evil,
          policyId: evil,
          message: evil,
          schemaErrors: [{ code: 'custom', segments: [evil], path: evil, message: evil }],
        },
        {
          instance: { systemId: evil, name: evil, kind: evil },
          component: { id: evil, name: evil },
        },
      ),
    );
    expect(out).not.toContain('<script>');
    expect(out).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // In links the value is percent-encoded as well as escaped.
    const encoded = '%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E';
    expect(out).toContain(`<a href="/marketplace/systems/${encoded}?environment=${encoded}">`);
  });
});

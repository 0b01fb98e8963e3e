import { describe, expect, it } from 'vitest';
import {
  COMPLIANCE_SEVERITY_ORDER,
  contractStateOf,
  contractStatesOf,
  failingRequirements,
  instanceCompliance,
  type RequirementNodeLike,
  requirementsOf,
  requirementTally,
  requirementVerdict,
  sumCounts,
} from './compliance-rollup';
import { complianceStatus } from './compliance-status';
import { InstanceComplianceSchema } from './compliance-wire';

const tree: RequirementNodeLike[] = [
  {
    key: 'quality',
    name: 'Quality',
    children: [
      { key: 'amount_not_null', compliant: false, issues: ['12 null rows'] },
      { key: 'id_unique', compliant: true },
      {
        key: 'nested',
        children: [
          { key: 'freshness', compliant: false, severity: 'warning', issues: ['3 hours late'] },
          { key: 'row_count', compliant: false, checked: false, issues: ['no SQL engine'] },
          { key: 'schema', compliant: false, description: 'columns match' },
        ],
      },
    ],
  },
  { key: 'owner', compliant: true },
];

describe('contractStateOf and contractStatesOf', () => {
  it('is unknown until a result arrives, then the state of the latest result', () => {
    expect(contractStateOf(undefined)).toBe('unknown');
    expect(contractStateOf(null)).toBe('unknown');
    expect(contractStateOf({ status: 'unprocessable' })).toBe('unprocessable');
  });

  it('lists the states of the data contracts only, in component order', () => {
    const components = [
      { dataContract: true, compliance: { status: 'violated' as const, evaluatedAt: 'x' } },
      { dataContract: false },
      { dataContract: true },
      { dataContract: true, compliance: { status: 'compliant' as const } },
    ];
    expect(contractStatesOf(components)).toEqual(['violated', 'unknown', 'compliant']);
    expect(instanceCompliance(contractStatesOf([{ dataContract: false }]))).toBe('none');
  });
});

describe('instanceCompliance', () => {
  it('rolls an instance up to its most severe contract state', () => {
    expect(instanceCompliance([])).toBe('none');
    expect(instanceCompliance(['compliant', 'compliant'])).toBe('compliant');
    expect(instanceCompliance(['compliant', 'unknown'])).toBe('unknown');
    expect(instanceCompliance(['unknown', 'unprocessable'])).toBe('unprocessable');
    expect(instanceCompliance(['unprocessable', 'violated', 'compliant'])).toBe('violated');
  });

  it('orders every contract state once, most severe first, and names each instance state', () => {
    expect(COMPLIANCE_SEVERITY_ORDER).toEqual([
      'violated',
      'unprocessable',
      'unknown',
      'compliant',
    ]);
    expect([...InstanceComplianceSchema.options].sort()).toEqual(
      [...COMPLIANCE_SEVERITY_ORDER, 'none'].sort(),
    );
    for (const state of COMPLIANCE_SEVERITY_ORDER) expect(instanceCompliance([state])).toBe(state);
    expect(InstanceComplianceSchema.safeParse('none').success).toBe(true);
    expect(InstanceComplianceSchema.safeParse('partly').success).toBe(false);
  });
});

describe('requirementVerdict', () => {
  it('tells met, failing, not checked and warning apart', () => {
    expect(requirementVerdict({ key: 'a', compliant: true })).toBe('compliant');
    expect(requirementVerdict({ key: 'a', compliant: false })).toBe('failing');
    expect(requirementVerdict({ key: 'a', compliant: false, severity: 'error' })).toBe('failing');
    expect(requirementVerdict({ key: 'a', compliant: false, severity: ' Warn ' })).toBe('warning');
    expect(requirementVerdict({ key: 'a', compliant: false, checked: false })).toBe('not_checked');
  });
});

describe('requirementsOf', () => {
  it('lists the requirements at any depth in tree order, sections left out', () => {
    expect(requirementsOf(tree).map((node) => node.key)).toEqual([
      'amount_not_null',
      'id_unique',
      'freshness',
      'row_count',
      'schema',
      'owner',
    ]);
    expect(requirementsOf([])).toEqual([]);
  });

  it('walks a tree deeper than the call stack allows', () => {
    let node: RequirementNodeLike = { key: 'leaf', compliant: true };
    for (let i = 0; i < 20_000; i++) node = { key: `s${i}`, children: [node] };
    expect(requirementsOf([node, { key: 'last', compliant: false }]).map((n) => n.key)).toEqual([
      'leaf',
      'last',
    ]);
  });
});

describe('requirementTally', () => {
  it('counts the requirements at any depth by verdict', () => {
    expect(requirementTally(tree)).toEqual({
      compliant: 2,
      failing: 2,
      notChecked: 1,
      warnings: 1,
    });
    expect(requirementTally([])).toEqual({ compliant: 0, failing: 0 });
  });

  it('agrees with the counts of complianceStatus', () => {
    const status = complianceStatus({
      resource: { id: 'urn:dmb:cmp:a:b:0:p', descriptor: '' },
      result: { satisfiesPolicy: false, details: { results: { root: tree } } },
    });
    expect(status.counts).toEqual(requirementTally(tree));
    expect(requirementTally(status.tree.flatMap((target) => target.records))).toEqual(
      status.counts,
    );
  });

  it('walks a tree deeper than the call stack allows', () => {
    let node: RequirementNodeLike = { key: 'leaf', compliant: false };
    for (let i = 0; i < 20_000; i++) node = { key: `s${i}`, children: [node] };
    expect(requirementTally([node])).toEqual({ compliant: 0, failing: 1 });
    expect(failingRequirements([node])[0]?.path).toHaveLength(20_001);
  });

  it('sums tallies, keeping the optional counts only when present', () => {
    expect(
      sumCounts([
        { compliant: 1, failing: 0 },
        { compliant: 0, failing: 2, warnings: 1 },
      ]),
    ).toEqual({ compliant: 1, failing: 2, warnings: 1 });
  });
});

describe('failingRequirements', () => {
  it('lists the requirements that make the contract violated, in tree order, with their path', () => {
    expect(failingRequirements(tree)).toEqual([
      { path: ['quality', 'amount_not_null'], issues: ['12 null rows'] },
      { path: ['quality', 'nested', 'schema'], description: 'columns match', issues: [] },
    ]);
  });

  it('lists as many requirements as counts.failing says', () => {
    expect(failingRequirements(tree)).toHaveLength(requirementTally(tree).failing);
  });
});

import type { ResultDetails, ValidationRecord } from '../src/result-details';

/**
 * A realistic details document: 2 sections × 4 × 4 × 5 requirements = 202 records on 4
 * levels, a third of the requirements failing with issues, plus a subcomponent key.
 *
 * @example
 * const details = buildDetailsDocument();
 */
export function buildDetailsDocument(): ResultDetails {
  let serial = 0;
  const leaf = (): ValidationRecord => {
    serial++;
    const compliant = serial % 3 !== 0;
    return {
      key: `check_${serial}`,
      name: `Check ${serial}`,
      description: 'Column-level expectation of the data contract',
      compliant,
      ...(compliant ? {} : { issues: [`${serial} rows violate the expectation`] }),
    };
  };
  const section = (level: number, fanOut: number[]): ValidationRecord => {
    serial++;
    const [width = 0, ...rest] = fanOut;
    return {
      key: `section_${serial}`,
      name: `Section ${serial}`,
      description: `Level ${level} checks`,
      children: Array.from({ length: width }, () =>
        rest.length === 0 ? leaf() : section(level + 1, rest),
      ),
    };
  };
  const root = Array.from({ length: 2 }, () => section(1, [4, 4, 5]));
  return {
    results: { root },
    notes: { errorSummary: { message: 'One or more data contract violations detected' } },
  };
}

/**
 * Counts records and depth of a details document.
 *
 * @example
 * countRecords(buildDetailsDocument()); // { records: 202, depth: 4 }
 */
export function countRecords(details: ResultDetails): { records: number; depth: number } {
  let records = 0;
  let depth = 0;
  const walk = (list: ValidationRecord[], level: number): void => {
    depth = Math.max(depth, level);
    for (const record of list) {
      records++;
      if (record.children) walk(record.children, level + 1);
    }
  };
  for (const list of Object.values(details.results)) walk(list, 1);
  return { records, depth };
}

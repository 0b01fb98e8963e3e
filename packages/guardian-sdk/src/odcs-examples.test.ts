import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeParseDescriptorYaml } from '@dcg/contract-schema';
import { describe, expect, it } from 'vitest';
import { parseDataContract } from './data-contract';

const ROOT = join(import.meta.dirname, '__fixtures__', 'odcs');

/**
 * The ODCS example set (see __fixtures__/odcs/SOURCE.md): each file with what the guardian reads
 * from it — the tables and their key, and the paths of the rules it cannot check (refused at
 * validate by default, reported as not checked otherwise). Every file parses; the three that their
 * projects mark invalid are named with the reason.
 */
const EXPECTED: Record<string, { tables: string[]; unchecked: string[]; invalid?: string }> = {
  'bitol/all-data-types.odcs.yaml': {
    tables: ['transactions_tbl'],
    unchecked: [
      'schema.0.properties.1.logicalTypeOptions.format',
      'schema.0.properties.2.logicalTypeOptions.format',
      'schema.0.properties.3.logicalTypeOptions.format',
      'schema.0.properties.4.logicalTypeOptions.format',
      'schema.0.properties.6.logicalTypeOptions.minItems',
      'schema.0.properties.6.logicalTypeOptions.maxItems',
      'schema.0.properties.6.logicalTypeOptions.uniqueItems',
      'schema.0.properties.7.logicalTypeOptions.required',
      'schema.0.properties.7.logicalTypeOptions.maxProperties',
    ],
  },
  'bitol/all-schema-types.odcs.yaml': {
    tables: ['tbl_1(rcvr_id)', 'AnObject', 'AnotherObject'],
    unchecked: ['schema.1.properties.0.items', 'schema.2.properties.0.items'],
  },
  'bitol/deprecated.odcs.yaml': {
    tables: ['legacy_orders'],
    unchecked: ['schema.0.properties.2.properties'],
  },
  'bitol/map.odcs.yaml': {
    tables: ['products(product_id)'],
    unchecked: [1, 2, 3, 4].map((i) => `schema.0.properties.${i}.map`),
  },
  'bitol/table-columns-with-partition.odcs.yaml': {
    tables: ['tbl(rcvr_cntry_code,rcvr_id)'],
    unchecked: [],
  },
  'bitol/variables.odcs.yaml': {
    tables: ['orders'],
    unchecked: ['schema.0.quality.0'],
  },
  'bitol/column-accuracy.odcs.yaml': {
    tables: ['Air_Quality'],
    unchecked: ['schema.0.properties.0.quality.0'],
  },
  'bitol/column-completeness.odcs.yaml': { tables: ['Air_Quality(UniqueID)'], unchecked: [] },
  'bitol/column-custom.odcs.yaml': {
    tables: ['Air_Quality(UniqueID)'],
    unchecked: ['schema.0.properties.0.quality.0', 'schema.0.properties.0.quality.1'],
  },
  'bitol/column-validity.odcs.yaml': { tables: ['Air_Quality(air_quality_status)'], unchecked: [] },
  'bitol/database-table-sla.odcs.yaml': {
    tables: [],
    unchecked: ['schema', ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `slaProperties.${i}`)],
  },
  'bitol/enum.odcs.yaml': { tables: ['orders(order_id)'], unchecked: [] },
  'bitol/full-example.odcs.yaml': {
    tables: ['tbl_1(rcvr_id)', 'receivers_master(id,country_code)'],
    unchecked: [
      'schema.0.relationships',
      'schema.0.properties.1.relationships',
      'schema.1.properties.3.relationships',
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `slaProperties.${i}`),
    ],
  },
  'bitol/relationships.odcs.yaml': {
    tables: ['customers(id)', 'addresses(customer_id,address_seq)', 'orders(id)'],
    unchecked: [
      'schema.2.relationships',
      'schema.2.properties.1.relationships',
      'schema.2.properties.2.relationships',
    ],
  },
  'bitol/strict-schema-test-invalid.odcs.yaml': {
    invalid:
      'ODCS marks it invalid (undefined fields at every level, to test a strict JSON Schema); the guardian reads contracts leniently and ignores unknown fields',
    tables: ['users_table(id)'],
    unchecked: [
      'schema.0.properties.0.logicalTypeOptions.format',
      'schema.0.properties.1.quality.0',
      'slaProperties.0',
    ],
  },
  'bitol/table-column.odcs.yaml': { tables: ['tbl'], unchecked: [] },
  'datacontract-cli/bigquery-datacontract_tablename_starting_with_number.odcs.yaml': {
    tables: ['100_tablename_staring_with_number'],
    unchecked: [
      'schema.0.properties.1.properties',
      'schema.0.properties.2.items',
      'schema.0.properties.3.items',
    ],
  },
  'datacontract-cli/bigquery-datacontract_with_quality_rules.odcs.yaml': {
    tables: ['test_table'],
    unchecked: [],
  },
  'datacontract-cli/lint-invalid.odcs.yaml': {
    invalid:
      'datacontract-cli lints it invalid (no version); the guardian reads it, and it declares no table: refused at validate',
    tables: [],
    unchecked: ['schema'],
  },
  'datacontract-cli/lint-misspelled_property_key.odcs.yaml': {
    invalid:
      'datacontract-cli lints it invalid (`qualiti`); the guardian names the misspelt key as a rule not checked',
    tables: ['orders'],
    unchecked: ['schema.0.properties.0.qualiti'],
  },
  'datacontract-cli/lint-valid-3.2.0.odcs.yaml': {
    tables: ['metrics_turnover', 'countries(code)'],
    unchecked: [
      'schema.0.relationships',
      'schema.0.properties.3.map',
      ...['dimensions', 'elementType', 'distanceMetric', 'normalized', 'embeddingModel'].map(
        (o) => `schema.0.properties.4.logicalTypeOptions.${o}`,
      ),
    ],
  },
  'datacontract-cli/postgres-odcs.yaml': { tables: ['my_table'], unchecked: [] },
  'datacontract-cli/postgres-odcs_case_sensitive.odcs.yaml': {
    tables: ['My_Table2'],
    unchecked: [],
  },
  'datacontract-cli/postgres-servicelevels.odcs.yaml': { tables: ['my_table'], unchecked: [] },
  'datacontract-cli/sodacl-datacontract.odcs.yaml': {
    tables: ['orders', 'line_items'],
    unchecked: ['schema.0.quality.0', 'schema.1.quality.0', 'slaProperties.0'],
  },
};

const files = ['bitol', 'datacontract-cli'].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => `${dir}/${f}`),
);

describe('the ODCS example set (bitol-io v3.0–3.2, datacontract-cli fixtures)', () => {
  it('lists every fixture', () => {
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files)('%s parses, every rule checked or named as not checked', (file) => {
    const expected = EXPECTED[file] as (typeof EXPECTED)[string];
    const yaml = safeParseDescriptorYaml(readFileSync(join(ROOT, file), 'utf8'));
    if (!yaml.success) throw new Error(JSON.stringify(yaml.issues));
    const parsed = parseDataContract(yaml.data);
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    expect(
      parsed.data.models.map((m) =>
        m.primaryKey.length > 0 ? `${m.table}(${m.primaryKey.join(',')})` : m.table,
      ),
    ).toEqual(expected.tables);
    expect(parsed.warnings.map((w) => w.path.join('.'))).toEqual(expected.unchecked);
    expect(parsed.data.unchecked.map((u) => u.path.join('.'))).toEqual(expected.unchecked);
    // Lifecycle dates (generalAvailability, endOfSupport, endOfLife) are not about the data:
    // reported as not checked, never refused. Everything else unchecked is refused by default.
    const lifecycle = /^(generalAvailability|endOfSupport|endOfLife|availability)$/;
    for (const rule of parsed.data.unchecked) {
      expect(rule.applicable, rule.name).toBe(!lifecycle.test(rule.name.replace('the SLA ', '')));
    }
  });

  it('resolves ODCS variables with a default, names a rule whose query uses one without', () => {
    const yaml = safeParseDescriptorYaml(
      readFileSync(join(ROOT, 'bitol/variables.odcs.yaml'), 'utf8'),
    );
    const parsed = parseDataContract(yaml.success ? yaml.data : undefined);
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.data.server).toMatchObject({ schema: 'public', database: 'orders' });
    expect(parsed.warnings[0]?.message).toBe(
      `the quality rule on orders: not checked, its query uses the variable \${TARGET_TABLE}, which this guardian does not resolve`,
    );
    const unresolved = parseDataContract({
      apiVersion: 'v3.2.0',
      servers: [{ type: 'postgres', schema: `\${DB_SCHEMA}` }],
      schema: [{ name: 't' }],
    });
    expect(unresolved.success ? [] : unresolved.issues).toEqual([
      {
        code: 'invalid_contract',
        path: ['servers', 0, 'schema'],
        message: `the schema is the variable \${DB_SCHEMA}, which this guardian does not resolve: write it, or give a default (\${DB_SCHEMA:-value})`,
      },
    ]);
  });

  it('reads the checks datacontract-cli runs on its own PostgreSQL fixture', () => {
    const yaml = safeParseDescriptorYaml(
      readFileSync(join(ROOT, 'datacontract-cli/postgres-odcs.yaml'), 'utf8'),
    );
    const parsed = parseDataContract(yaml.success ? yaml.data : undefined);
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    // `status: null` (as PyYAML writes it) is absent; legacy isNullable / isUnique are read.
    expect(parsed.data.models[0]?.columns[0]).toMatchObject({
      name: 'field_one',
      required: true,
      unique: true,
      options: { pattern: '[A-Za-z]{2}-\\d{3}-[A-Za-z]{2}$' },
    });
    expect(parsed.data.models[0]?.columns[1]).toMatchObject({
      required: false,
      unique: false,
      options: { minimum: 10 },
    });
  });
});

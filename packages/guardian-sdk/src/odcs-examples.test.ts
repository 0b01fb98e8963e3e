import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeParseDescriptorYaml } from '@dcg/contract-schema';
import { describe, expect, it } from 'vitest';
import { type ContractParse, type DataContract, parseDataContract } from './data-contract';

const ROOT = join(import.meta.dirname, '__fixtures__', 'odcs');

/**
 * Our ODCS v3.0–v3.2 feature set (see __fixtures__/odcs/README.md), each contract with what the
 * guardian reads from it: its tables with their key (`table(key columns)`) and the paths of the
 * rules it cannot check (refused at validate by default, reported as not checked otherwise); or,
 * for a contract it refuses, each issue's code and path. `invalid` names why ODCS itself holds
 * the contract invalid, where it does.
 */
type Expected =
  | { tables: string[]; unchecked: string[]; invalid?: string }
  | { refused: string[]; invalid: string };

const EXPECTED: Record<string, Expected> = {
  'fundamentals-v3.0.odcs.yaml': { tables: ['invoices(invoice_no)'], unchecked: [] },
  'full-shipments-v3.1.odcs.yaml': {
    tables: ['shipments(tracking_no)', 'depots(code,country)'],
    unchecked: [
      'schema.0.relationships',
      'schema.0.properties.1.relationships',
      'schema.1.properties.2.relationships',
      // generalAvailability, endOfSupport, endOfLife, retention, frequency, timeOfAvailability
      ...[1, 2, 3, 4, 5, 6].map((i) => `slaProperties.${i}`),
    ],
  },
  'logical-type-options.odcs.yaml': {
    tables: ['payments'],
    unchecked: [
      'schema.0.properties.1.logicalTypeOptions.format',
      'schema.0.properties.2.logicalTypeOptions.format',
      'schema.0.properties.3.logicalTypeOptions.format',
      'schema.0.properties.4.logicalTypeOptions.format',
      'schema.0.properties.8.logicalTypeOptions.minItems',
      'schema.0.properties.8.logicalTypeOptions.maxItems',
      'schema.0.properties.8.logicalTypeOptions.uniqueItems',
      'schema.0.properties.9.logicalTypeOptions.required',
      'schema.0.properties.9.logicalTypeOptions.minProperties',
      'schema.0.properties.9.logicalTypeOptions.maxProperties',
      'schema.0.properties.10.logicalTypeOptions.format',
    ],
  },
  'nested-properties.odcs.yaml': {
    tables: ['parcels(parcel_id)', 'ParcelScan'],
    unchecked: [
      // The rule on recipient.address.postcode is inside these nested fields.
      'schema.0.properties.1.properties',
      'schema.0.properties.2.items',
      'schema.1.properties.0.items',
    ],
  },
  'enum-deprecated-v3.2.odcs.yaml': {
    tables: ['returns(return_id)', 'returns_v1'],
    unchecked: [],
  },
  'map-v3.2.odcs.yaml': {
    tables: ['warehouse_stock(sku)'],
    unchecked: [1, 2, 3, 4].map((i) => `schema.0.properties.${i}.map`),
  },
  'semantics-v3.2.odcs.yaml': {
    tables: ['revenue_daily', 'stores(store_no)'],
    unchecked: [
      'schema.0.relationships',
      ...['dimensions', 'elementType', 'distanceMetric', 'normalized', 'embeddingModel'].map(
        (o) => `schema.0.properties.3.logicalTypeOptions.${o}`,
      ),
    ],
  },
  'authoritative-definitions-v3.2.odcs.yaml': {
    tables: ['suppliers(supplier_id)'],
    unchecked: [],
  },
  'team-roles-support-v3.2.odcs.yaml': { tables: ['carriers(carrier_code)'], unchecked: [] },
  'relationships-composite-keys.odcs.yaml': {
    tables: ['orders(order_no)', 'order_lines(order_no,line_no)', 'line_discounts'],
    unchecked: [
      'schema.2.relationships',
      'schema.2.properties.0.relationships',
      'schema.2.properties.2.relationships',
    ],
  },
  'variables-v3.2.odcs.yaml': { tables: ['open_invoices'], unchecked: ['schema.0.quality.1'] },
  'quality-library.odcs.yaml': {
    tables: ['customers(customer_no)'],
    unchecked: ['schema.0.properties.5.quality.0'],
  },
  'quality-sql-custom-text.odcs.yaml': {
    tables: ['deliveries', 'delivery_attempts'],
    unchecked: [
      'schema.0.quality.1',
      'schema.0.quality.2',
      'schema.0.properties.1.quality.1',
      'schema.0.properties.2.quality.0',
      'schema.0.properties.3.properties',
      'schema.1.quality.0',
    ],
  },
  'sla-without-schema.odcs.yaml': {
    tables: [],
    unchecked: ['schema', ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `slaProperties.${i}`)],
  },
  'sla-freshness.odcs.yaml': {
    tables: ['pick_lists', 'picks'],
    unchecked: ['slaProperties.2', 'slaProperties.3'],
  },
  'servers-kafka-topic.odcs.yaml': { tables: ['order-events'], unchecked: [] },
  'postgres-legacy-keys.odcs.yaml': { tables: ['vouchers'], unchecked: [] },
  'postgres-case-sensitive.odcs.yaml': { tables: ['Locker_Slots'], unchecked: [] },
  'bigquery-digit-table.odcs.yaml': {
    tables: ['2024_returns'],
    unchecked: [
      'schema.0.properties.1.properties',
      'schema.0.properties.2.items',
      'schema.0.properties.3.items',
    ],
  },
  'snowflake-export.odcs.yaml': {
    tables: ['paniers(panier_id,état)'],
    unchecked: ['slaProperties.0', 'slaProperties.1'],
  },
  'xml-document-v3.2.odcs.yaml': {
    // A document is checked as a table of its top-level fields; an object property without
    // properties is a column with nothing nested to name.
    tables: ['deliveryNote'],
    unchecked: [
      'schema.0.properties.2.logicalTypeOptions.format',
      'schema.0.properties.5.properties',
      'schema.0.properties.6.properties',
    ],
  },
  'invalid-no-version.odcs.yaml': {
    invalid: 'no version (required); read leniently, and it declares no table',
    tables: [],
    unchecked: ['schema'],
  },
  'invalid-no-status-version.odcs.yaml': {
    invalid: 'no status and no version (required); read leniently, the null description is absent',
    tables: ['dunning_letters'],
    unchecked: [],
  },
  'invalid-misspelt-keys.odcs.yaml': {
    invalid: '`slaPropertie`, `qualiti`, `propertys` are no ODCS keys; each named as not checked',
    tables: ['signups', 'signup_sources'],
    unchecked: ['slaPropertie', 'schema.0.properties.0.qualiti', 'schema.1.propertys'],
  },
  'invalid-strict-schema.odcs.yaml': {
    invalid:
      'fields ODCS does not define at every level (a strict JSON Schema refuses it); the guardian ignores unknown fields and names the rules it cannot check',
    tables: ['loyalty_members(member_no)'],
    unchecked: [
      'schema.0.properties.0.logicalTypeOptions.format',
      'schema.0.properties.1.quality.0',
      'slaProperties.0',
    ],
  },
  'refused-no-api-version.odcs.yaml': {
    invalid: 'no apiVersion (required)',
    refused: ['invalid_contract apiVersion'],
  },
  'refused-api-version.odcs.yaml': {
    invalid: 'ODCS v2 (only v3.* is read)',
    refused: ['unsupported_value apiVersion'],
  },
  'refused-object-without-name.odcs.yaml': {
    invalid: 'a schema object and a property without name (required)',
    refused: ['invalid_contract schema.0.name', 'invalid_contract schema.1.properties.0.name'],
  },
  'refused-wrong-types.odcs.yaml': {
    invalid: 'values of the wrong type',
    refused: [
      'invalid_contract schema.0.properties.0.required',
      'invalid_contract schema.0.properties.1.quality.0.mustBe',
      'invalid_contract servers.0.port',
    ],
  },
  'refused-bad-options.odcs.yaml': {
    invalid: 'logicalTypeOptions of the wrong type',
    refused: [
      'invalid_contract schema.0.properties.0.logicalTypeOptions.minLength',
      'invalid_contract schema.0.properties.0.logicalTypeOptions.pattern',
      'invalid_contract schema.0.properties.1.logicalTypeOptions.minimum',
      'invalid_contract schema.0.properties.1.logicalTypeOptions.exclusiveMaximum',
      'invalid_contract schema.0.properties.2.logicalTypeOptions.enum',
    ],
  },
  'refused-rule-operators.odcs.yaml': {
    invalid: 'rules with two operators, none, a one-number range; a sql rule without query',
    refused: [
      'invalid_contract schema.0.quality.0.query',
      'invalid_contract schema.0.properties.0.quality.0',
      'invalid_contract schema.0.properties.0.quality.1',
      'invalid_contract schema.0.properties.0.quality.2.mustBeBetween',
    ],
  },
  'refused-unresolved-server.odcs.yaml': {
    invalid: 'server variables without a default, a latency that is no duration',
    refused: [
      'invalid_contract servers.0.database',
      'invalid_contract servers.0.schema',
      'invalid_contract slaProperties.0.value',
    ],
  },
  'refused-long-identifier.odcs.yaml': {
    invalid: 'a table name over 63 bytes, a column name with a NUL',
    refused: ['invalid_contract schema.0.name', 'invalid_contract schema.0.properties.0.name'],
  },
};

const files = readdirSync(ROOT).filter((f) => f.endsWith('.yaml'));

function parseFixture(file: string): ContractParse {
  const yaml = safeParseDescriptorYaml(readFileSync(join(ROOT, file), 'utf8'));
  if (!yaml.success) throw new Error(`${file}: ${JSON.stringify(yaml.issues)}`);
  return parseDataContract(yaml.data);
}

function contractOf(file: string): DataContract {
  const parsed = parseFixture(file);
  if (!parsed.success) throw new Error(`${file}: ${JSON.stringify(parsed.issues)}`);
  return parsed.data;
}

function modelOf(file: string, table: string) {
  const model = contractOf(file).models.find((m) => m.table === table);
  if (!model) throw new Error(`${file}: no table ${table}`);
  return model;
}

function optionsOf(file: string, table: string): Record<string, unknown> {
  return Object.fromEntries(
    modelOf(file, table)
      .columns.filter((c) => c.options)
      .map((c) => [c.name, c.options]),
  );
}

describe('our ODCS v3.0–v3.2 contracts', () => {
  it('lists every fixture', () => {
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files)('%s: read, every rule checked or named as not checked; or refused', (file) => {
    const expected = EXPECTED[file] as Expected;
    const parsed = parseFixture(file);
    if ('refused' in expected) {
      expect(parsed.success).toBe(false);
      if (parsed.success) return;
      expect(parsed.issues.map((i) => `${i.code} ${i.path.join('.')}`)).toEqual(expected.refused);
      return;
    }
    if (!parsed.success) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.data.dialect).toBe('odcs');
    expect(
      parsed.data.models.map((m) =>
        m.primaryKey.length > 0 ? `${m.table}(${m.primaryKey.join(',')})` : m.table,
      ),
    ).toEqual(expected.tables);
    expect(parsed.warnings.map((w) => w.path.join('.'))).toEqual(expected.unchecked);
    expect(parsed.data.unchecked.map((u) => u.path.join('.'))).toEqual(expected.unchecked);
    // Lifecycle dates and availability are not about the data: reported as not checked, never
    // refused (code not_applicable). Everything else unchecked is refused by default.
    const lifecycle = /^the SLA (generalAvailability|endOfSupport|endOfLife|availability)$/;
    for (const [i, rule] of parsed.data.unchecked.entries()) {
      expect(rule.applicable, rule.name).toBe(!lifecycle.test(rule.name));
      expect(parsed.warnings[i]?.code).toBe(rule.applicable ? 'unchecked_rule' : 'not_applicable');
    }
  });

  it('checks the logicalTypeOptions PostgreSQL can check, v3.0 boolean exclusive bounds included', () => {
    expect(optionsOf('logical-type-options.odcs.yaml', 'payments')).toEqual({
      payment_ref: { minLength: 12, maxLength: 12, pattern: '^PAY[0-9]{9}$' },
      booked_on: { exclusiveMinimum: '2019-12-31', maximum: '2030-12-31' },
      authorised_at: { minimum: '2020-01-01T00:00:00Z' },
      // `exclusiveMaximum: true` (v3.0) makes maximum strict.
      amount: { minimum: 0.01, exclusiveMaximum: 25000 },
      instalments: { exclusiveMinimum: 0, exclusiveMaximum: 49 },
      payer_email: { format: 'email', maxLength: 254 },
      card_token: { format: 'uuid' },
    });
    // A storage format (u16) is not checked; the bounds are.
    expect(optionsOf('xml-document-v3.2.odcs.yaml', 'deliveryNote')).toEqual({
      noteNo: { pattern: '^DN-[0-9]{8}$' },
      revision: { minimum: 0, maximum: 65535 },
    });
    const parsed = parseFixture('logical-type-options.odcs.yaml');
    expect(parsed.success && parsed.warnings.at(-1)?.message).toBe(
      'the format "iso-4217" of payments.currency: not checked, the formats checked are email, uuid, uri, url, ipv4, date, date-time',
    );
  });

  it('checks enums (v3.2 values with labels, and logicalTypeOptions.enum before it); deprecated tables and columns stay checked', () => {
    expect(optionsOf('enum-deprecated-v3.2.odcs.yaml', 'returns')).toEqual({
      reason: { enum: ['damaged', 'wrong_item', 'changed_mind'] },
      refund_tier: { enum: [1, 2] },
    });
    expect(modelOf('enum-deprecated-v3.2.odcs.yaml', 'returns').columns.map((c) => c.name)).toEqual(
      ['return_id', 'reason', 'refund_tier', 'legacy_reason_code'],
    );
    expect(optionsOf('snowflake-export.odcs.yaml', 'paniers')).toEqual({
      panier_id: { minLength: 6, maxLength: 12, pattern: '^P[0-9]+$' },
      état: { enum: ['ouvert', 'payé', 'expédié'] },
      montant_centimes: { minimum: 0, maximum: 10000000 },
    });
    expect(optionsOf('semantics-v3.2.odcs.yaml', 'revenue_daily')).toEqual({
      channel: { enum: ['store', 'online'] },
    });
  });

  it('reads every library metric, operator, unit and severity', () => {
    const rules = modelOf('quality-library.odcs.yaml', 'customers').quality;
    expect(rules).toEqual([
      {
        kind: 'library',
        metric: 'rowCount',
        threshold: { operator: 'mustBeBetween', value: [1000, 5000000] },
        unit: 'rows',
        path: ['schema', 0, 'quality', 0],
      },
      {
        kind: 'library',
        metric: 'rowCount',
        threshold: { operator: 'mustNotBeBetween', value: [0, 10] },
        unit: 'rows',
        path: ['schema', 0, 'quality', 1],
      },
      {
        kind: 'library',
        metric: 'rowCount',
        threshold: { operator: 'mustBeGreaterOrEqualTo', value: 1 },
        unit: 'rows',
        path: ['schema', 0, 'quality', 2],
      },
      {
        kind: 'library',
        metric: 'duplicateValues',
        columns: ['email', 'segment'],
        threshold: { operator: 'mustBeLessThan', value: 10 },
        unit: 'rows',
        path: ['schema', 0, 'quality', 3],
      },
      {
        kind: 'library',
        metric: 'nullValues',
        column: 'customer_no',
        severity: 'error',
        threshold: { operator: 'mustBe', value: 0 },
        unit: 'rows',
        path: ['schema', 0, 'properties', 0, 'quality', 0],
      },
      {
        kind: 'library',
        metric: 'missingValues',
        column: 'email',
        missingValues: [null, '', 'n/a'],
        severity: 'warning',
        threshold: { operator: 'mustBeLessThan', value: 5 },
        unit: 'percent',
        path: ['schema', 0, 'properties', 1, 'quality', 0],
      },
      {
        kind: 'library',
        metric: 'invalidValues',
        column: 'segment',
        validValues: ['retail', 'trade', 'staff'],
        threshold: { operator: 'mustBeLessOrEqualTo', value: 2 },
        unit: 'percent',
        path: ['schema', 0, 'properties', 2, 'quality', 0],
      },
      {
        kind: 'library',
        metric: 'invalidValues',
        column: 'postcode',
        pattern: '^[0-9]{5}$',
        severity: 'info',
        threshold: { operator: 'mustNotBe', value: 1 },
        unit: 'rows',
        path: ['schema', 0, 'properties', 3, 'quality', 0],
      },
      {
        kind: 'library',
        metric: 'duplicateValues',
        column: 'loyalty_card',
        name: 'one card per customer',
        threshold: { operator: 'mustBe', value: 0 },
        unit: 'rows',
        path: ['schema', 0, 'properties', 4, 'quality', 0],
      },
    ]);
    const parsed = parseFixture('quality-library.odcs.yaml');
    expect(parsed.success && parsed.warnings[0]?.message).toBe(
      'the quality rule on customers.credit_limit: not checked, the library metric "between" is unknown; the metrics are nullValues, missingValues, invalidValues, duplicateValues, rowCount',
    );
  });

  it('runs sql rules as written and names custom (by engine) and text rules', () => {
    const rules = modelOf('quality-sql-custom-text.odcs.yaml', 'deliveries').quality;
    expect(rules.map((r) => (r.kind === 'sql' ? [r.column, r.query, r.threshold] : r))).toEqual([
      [
        undefined,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: datacontract-cli's ${model} placeholder
        'SELECT count(*) FROM ${model} WHERE delivered_at < dispatched_at',
        { operator: 'mustBe', value: 0 },
      ],
      [
        'delivery_id',
        "SELECT count(*) FROM {model} WHERE trim({property}) = ''",
        { operator: 'mustBe', value: 0 },
      ],
      [
        'weight_kg',
        'SELECT percentile_cont(0.9) WITHIN GROUP (ORDER BY weight_kg)\nFROM deliveries\n',
        { operator: 'mustBeBetween', value: [1, 40] },
      ],
    ]);
    const parsed = parseFixture('quality-sql-custom-text.odcs.yaml');
    expect(
      parsed.success && parsed.warnings.map((w) => w.message.split(': not checked, ')[1]),
    ).toEqual([
      'a custom rule runs in its own engine (soda), which the PostgreSQL checks are not',
      'a text rule is prose for people; no engine runs it',
      'a custom rule runs in its own engine (soda), which the PostgreSQL checks are not',
      'a custom rule runs in its own engine (dqx), which the PostgreSQL checks are not',
      'fields inside a column (object or array) are not checked; the column itself is',
      'a custom rule runs in its own engine (greatExpectations), which the PostgreSQL checks are not',
    ]);
  });

  it('measures latency and freshness on the element, the slaDefaultElement, or the first timestamp column', () => {
    // The element names the column by its logical name (shipped_on): its physicalName is read.
    expect(modelOf('full-shipments-v3.1.odcs.yaml', 'shipments').freshness).toEqual({
      column: 'ship_dt',
      maxAgeMs: 2 * 86_400_000,
      declared: '2 d',
    });
    expect(modelOf('sla-freshness.odcs.yaml', 'pick_lists').freshness).toEqual({
      column: 'released_at',
      maxAgeMs: 2 * 3_600_000,
      declared: '2 h',
    });
    // No element: the contract's slaDefaultElement (another table), not the first table.
    expect(modelOf('sla-freshness.odcs.yaml', 'picks').freshness).toEqual({
      column: 'confirmed_at',
      maxAgeMs: 45 * 60_000,
      declared: '45 m',
    });
    // No element and no default: the first table's first date or timestamp column.
    expect(modelOf('fundamentals-v3.0.odcs.yaml', 'invoices').freshness).toEqual({
      column: 'issued_on',
      maxAgeMs: 86_400_000,
      declared: '1 d',
    });
    const parsed = parseFixture('sla-without-schema.odcs.yaml');
    expect(parsed.success && parsed.warnings[1]?.message).toBe(
      'the latency SLA: not checked, its element "moves.moved_at" names no table.column of the contract (and no timestamp column was found)',
    );
  });

  it('reads the PostgreSQL server (postgres or postgresql, variables resolved) and ignores the others', () => {
    const servers = Object.fromEntries(
      Object.keys(EXPECTED)
        .filter((f) => !('refused' in (EXPECTED[f] as Expected)))
        .map((f) => [f, contractOf(f).server])
        .filter(([, server]) => server !== undefined),
    );
    expect(servers).toEqual({
      'full-shipments-v3.1.odcs.yaml': {
        host: 'pg.logistics.internal',
        port: 5433,
        database: 'logistics',
        schema: 'shipping',
      },
      'invalid-strict-schema.odcs.yaml': {
        host: 'localhost',
        port: 5432,
        database: 'loyalty',
        schema: 'public',
      },
      'postgres-case-sensitive.odcs.yaml': {
        host: 'localhost',
        port: 5432,
        database: 'test',
        schema: 'public',
      },
      'postgres-legacy-keys.odcs.yaml': {
        host: 'localhost',
        port: 5432,
        database: 'shop',
        schema: 'public',
      },
      // A host variable without default stays as written: the guardian connects with its own
      // configuration; only the schema and database name what it checks.
      'semantics-v3.2.odcs.yaml': {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an ODCS variable
        host: '${REPORTING_HOST}',
        port: 5432,
        database: 'finance',
        schema: 'reporting',
      },
      'sla-freshness.odcs.yaml': { host: 'wms-db', port: 5432, database: 'wms', schema: 'picking' },
      'variables-v3.2.odcs.yaml': {
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an ODCS variable
        host: '${BILLING_HOST}',
        port: 5432,
        database: 'billing',
        schema: 'receivables',
      },
    });
    expect(modelOf('full-shipments-v3.1.odcs.yaml', 'depots').schema).toBe('shipping');
  });

  it('resolves variables with a default in sql rules, names a rule whose query uses one without', () => {
    const [rule] = modelOf('variables-v3.2.odcs.yaml', 'open_invoices').quality;
    expect(rule).toMatchObject({
      kind: 'sql',
      name: 'overdue beyond the dunning limit',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: datacontract-cli's ${model} placeholder
      query: 'SELECT count(*) FROM ${model} WHERE due_on < current_date - 90',
    });
    const parsed = parseFixture('variables-v3.2.odcs.yaml');
    expect(parsed.success && parsed.warnings[0]?.message).toBe(
      `the quality rule "none before the cutover" on open_invoices: not checked, its query uses the variable \${CUTOVER_DATE}, which this guardian does not resolve`,
    );
  });

  it('reads legacy isNullable / isUnique and required / unique, keys as a whole', () => {
    const columns = (file: string, table: string) =>
      modelOf(file, table).columns.map((c) => [c.name, c.required, c.unique, c.primaryKey]);
    expect(columns('postgres-legacy-keys.odcs.yaml', 'vouchers')).toEqual([
      ['voucher_code', true, true, false],
      ['face_value', false, false, false],
      ['valid_until', false, false, false],
    ]);
    // A key column is required; unique only when declared so on its own.
    expect(columns('full-shipments-v3.1.odcs.yaml', 'depots')).toEqual([
      ['code', true, true, true],
      ['country', true, false, true],
      ['operator', false, false, false],
    ]);
    expect(modelOf('full-shipments-v3.1.odcs.yaml', 'shipments').columns[0]).toEqual({
      name: 'ship_dt',
      type: 'date',
      physicalType: 'date',
      required: true,
      unique: false,
      primaryKey: false,
    });
  });

  it('names each misspelt key with the key it likely means', () => {
    const parsed = parseFixture('invalid-misspelt-keys.odcs.yaml');
    expect(parsed.success && parsed.warnings.map((w) => w.message)).toEqual([
      '"slaPropertie" of the contract: not checked, it is no ODCS key (did you mean "slaProperties"?), so what it declares would be ignored',
      '"qualiti" of signups.email: not checked, it is no ODCS key (did you mean "quality"?), so what it declares would be ignored',
      '"propertys" of signup_sources: not checked, it is no ODCS key (did you mean "properties"?), so what it declares would be ignored',
    ]);
  });

  it('refuses an ODCS contract without apiVersion instead of reading it as a Witboost one', () => {
    const yaml = safeParseDescriptorYaml(
      readFileSync(join(ROOT, 'refused-no-api-version.odcs.yaml'), 'utf8'),
    );
    // With a fallback table it was read as a Witboost contract whose column is the table.
    const parsed = parseDataContract(yaml.success ? yaml.data : undefined, 'delivery_slots');
    expect(parsed.success ? parsed.data : parsed.issues).toEqual([
      {
        code: 'invalid_contract',
        path: ['apiVersion'],
        message:
          'an ODCS contract (kind DataContract, or schema objects with properties) needs apiVersion (v3.x)',
      },
    ]);
    // Without kind, schema objects with properties say it is ODCS too.
    const noKind = parseDataContract({ schema: [{ name: 't', properties: [] }] }, 't');
    expect(noKind.success ? [] : noKind.issues.map((i) => i.path)).toEqual([['apiVersion']]);
  });
});

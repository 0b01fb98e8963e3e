import { describe, expect, it } from 'vitest';
import { dataContractView, requirementColumn } from './data-contract-view';

describe('dataContractView', () => {
  it('reads a Witboost contract: constraints make columns required, unique or the key', () => {
    const view = dataContractView({
      schema: [
        { name: 'id', dataType: 'string', constraint: 'PRIMARY_KEY' },
        { name: 'email', dataType: 'string', constraints: ['NOT_NULL', 'UNIQUE'] },
        { name: 'note', dataType: 'string', description: 'Free text' },
      ],
      SLA: { timeliness: '2 hours', upTime: null },
    });
    expect(view?.columns).toEqual([
      { name: 'id', type: 'string', required: true, unique: true, primaryKey: true },
      { name: 'email', type: 'string', required: true, unique: true, primaryKey: false },
      {
        name: 'note',
        type: 'string',
        required: false,
        unique: false,
        primaryKey: false,
        description: 'Free text',
      },
    ]);
    expect(view?.sla).toEqual([{ name: 'timeliness', value: '2 hours' }]);
  });

  it('reads an ODCS contract: properties, quality on properties and objects, slaProperties', () => {
    const view = dataContractView({
      schema: [
        {
          name: 'orders',
          properties: [
            { name: 'order_id', logicalType: 'string', primaryKey: true },
            {
              name: 'amount',
              logicalType: 'number',
              required: true,
              quality: [{ metric: 'nullValues', mustBe: 0, severity: 'error' }],
            },
          ],
          quality: [{ metric: 'rowCount', mustBeBetween: [1, 100], name: 'some rows' }],
        },
      ],
      slaProperties: [{ property: 'latency', value: 4, unit: 'h', element: 'orders.updated_at' }],
    });
    expect(view?.columns.map((c) => [c.name, c.type, c.required, c.primaryKey, c.model])).toEqual([
      ['order_id', 'string', true, true, 'orders'],
      ['amount', 'number', true, false, 'orders'],
    ]);
    expect(view?.quality).toEqual([
      { text: 'nullValues: must be 0', column: 'amount', severity: 'error' },
      { text: 'some rows: must be between 1 and 100' },
    ]);
    expect(view?.sla).toEqual([{ name: 'latency (orders.updated_at)', value: '4 h' }]);
  });

  it('reads constraints as the guardians do: written loosely, and ODCS keys before v3', () => {
    const witboost = dataContractView({
      schema: [{ name: 'email', constraints: [' not null ', 'Unique'] }],
    });
    expect(witboost?.columns[0]).toMatchObject({ required: true, unique: true, primaryKey: false });
    const odcs = dataContractView({
      schema: [
        {
          name: 'orders',
          properties: [
            { name: 'id', isNullable: false, isUnique: true },
            { name: 'note', isNullable: true },
          ],
        },
      ],
    });
    expect(odcs?.columns.map((c) => [c.name, c.required, c.unique])).toEqual([
      ['id', true, true],
      ['note', false, false],
    ]);
  });

  it('answers undefined without a contract object', () => {
    expect(dataContractView(undefined)).toBeUndefined();
    expect(dataContractView(['schema'])).toBeUndefined();
  });
});

describe('requirementColumn', () => {
  it('finds the column from the key or the name, the longest match first', () => {
    const columns = ['amount', 'amount_net', 'id'];
    expect(requirementColumn({ key: 'amount_net_not_null' }, columns)).toBe('amount_net');
    expect(requirementColumn({ key: 'x', name: 'amount is never null' }, columns)).toBe('amount');
    expect(requirementColumn({ key: 'id' }, columns)).toBe('id');
    expect(requirementColumn({ key: 'row_count' }, columns)).toBeUndefined();
  });
});

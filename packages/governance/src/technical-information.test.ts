import { describe, expect, it } from 'vitest';
import { technicalInformation } from './technical-information';

describe('technicalInformation', () => {
  it('keeps the label of display entries and links their http(s) href', () => {
    const info = technicalInformation({
      owner: { type: 'string', label: 'Owner', value: 'alice' },
      dashboard: {
        type: 'link',
        label: 'Dashboard',
        value: 'Grafana',
        href: 'https://grafana.example/d/1',
      },
      evil: { type: 'link', label: 'Click', value: 'me', href: 'javascript:alert(1)' },
    });
    expect(info).toEqual({
      entries: [
        { key: 'owner', label: 'Owner', value: { kind: 'text', text: 'alice' } },
        {
          key: 'dashboard',
          label: 'Dashboard',
          value: { kind: 'link', href: 'https://grafana.example/d/1', text: 'Grafana' },
        },
        { key: 'evil', label: 'Click', value: { kind: 'text', text: 'me' } },
      ],
      omitted: 0,
    });
  });

  it('turns URL strings into links, keys into words, and keeps nested values nested', () => {
    const info = technicalInformation({
      jdbcUrl: 'jdbc:postgresql://db/orders',
      docs_url: 'https://docs.example/orders?x=<b>',
      replicas: 3,
      tags: ['a', null, { region: 'eu' }],
      connection: { host: 'db.internal', 'read-only': true },
    });
    expect(info.entries).toEqual([
      {
        key: 'jdbcUrl',
        label: 'Jdbc url',
        value: { kind: 'text', text: 'jdbc:postgresql://db/orders' },
      },
      {
        key: 'docs_url',
        label: 'Docs url',
        value: {
          kind: 'link',
          href: 'https://docs.example/orders?x=%3Cb%3E',
          text: 'https://docs.example/orders?x=<b>',
        },
      },
      { key: 'replicas', label: 'Replicas', value: { kind: 'text', text: '3' } },
      {
        key: 'tags',
        label: 'Tags',
        value: {
          kind: 'list',
          items: [
            { kind: 'text', text: 'a' },
            { kind: 'empty' },
            {
              kind: 'group',
              entries: [{ key: 'region', label: 'Region', value: { kind: 'text', text: 'eu' } }],
            },
          ],
        },
      },
      {
        key: 'connection',
        label: 'Connection',
        value: {
          kind: 'group',
          entries: [
            { key: 'host', label: 'Host', value: { kind: 'text', text: 'db.internal' } },
            { key: 'read-only', label: 'Read only', value: { kind: 'text', text: 'true' } },
          ],
        },
      },
    ]);
  });

  it('is bounded in values, depth and text length, and counts what it leaves out', () => {
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    const nested = technicalInformation({ deep }, { maxDepth: 3 });
    // Three levels are shown; every value below them is counted as omitted.
    expect(nested.omitted).toBe(9_999);
    const wide = technicalInformation(
      Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'])),
      { maxValues: 10 },
    );
    expect(wide.entries).toHaveLength(10);
    expect(wide.omitted).toBe(40);
    const long = technicalInformation({ note: 'y'.repeat(50) }, { maxTextLength: 5 });
    expect(long.entries[0]!.value).toEqual({ kind: 'text', text: 'yyyyy…' });
  });
});

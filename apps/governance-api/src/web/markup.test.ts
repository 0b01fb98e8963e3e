import { describe, expect, it } from 'vitest';
import { markup, trusted } from './markup';

describe('markup', () => {
  it('escapes interpolated strings and arrays but keeps nested markup', () => {
    const items = ['<a>', `"b" & 'c'`].map((item) => markup`<li>${item}</li>`);
    expect(String(markup`<ul title="${'x"y'}">${items}${trusted('<!-- kept -->')}</ul>`)).toBe(
      '<ul title="x&quot;y"><li>&lt;a&gt;</li><li>&quot;b&quot; &amp; &#39;c&#39;</li><!-- kept --></ul>',
    );
  });

  it('drops booleans, null and undefined and prints numbers', () => {
    expect(String(markup`${false}${null}${undefined}${true}${42}`)).toBe('42');
  });

  it('refuses a promise instead of rendering it later', () => {
    expect(() => markup`${Promise.resolve('late')}`).toThrow(/a promise was interpolated/);
  });
});

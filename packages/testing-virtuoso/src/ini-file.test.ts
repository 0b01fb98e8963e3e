import { describe, expect, it } from 'vitest';
import { getIniValue, setIniValue } from './ini-file';

const sample = `[Database]
DatabaseFile = /var/lib/db/virtuoso.db
; a comment
[Parameters]
ServerPort = 1111
DirsAllowed = ., /usr/share/vad
IndexTreeMaps = 256
IndexTreeMaps = 64

[HTTPServer]
ServerPort = 8890 ; http
`;

describe('setIniValue', () => {
  it('replaces a key only inside its section', () => {
    const ini = setIniValue(sample, 'HTTPServer', 'ServerPort', '127.0.0.1:9000');
    expect(getIniValue(ini, 'HTTPServer', 'ServerPort')).toBe('127.0.0.1:9000');
    expect(getIniValue(ini, 'Parameters', 'ServerPort')).toBe('1111');
  });

  it('replaces every repetition of a key', () => {
    const ini = setIniValue(sample, 'Parameters', 'indextreemaps', 32);
    expect(ini.match(/IndexTreeMaps|indextreemaps/g)).toHaveLength(2);
    expect(ini).not.toContain('= 64');
    expect(getIniValue(ini, 'Parameters', 'IndexTreeMaps')).toBe('32');
  });

  it('appends a missing key at the end of its section, before the next section', () => {
    const ini = setIniValue(sample, 'Database', 'LockFile', '/tmp/x.lck');
    expect(getIniValue(ini, 'Database', 'LockFile')).toBe('/tmp/x.lck');
    expect(ini.indexOf('LockFile')).toBeLessThan(ini.indexOf('[Parameters]'));
  });

  it('appends a missing section', () => {
    const ini = setIniValue(sample, 'SPARQL', 'ResultSetMaxRows', 5);
    expect(getIniValue(ini, 'SPARQL', 'ResultSetMaxRows')).toBe('5');
    expect(getIniValue(ini, 'Database', 'DatabaseFile')).toBe('/var/lib/db/virtuoso.db');
  });

  it('refuses a value that would inject another line', () => {
    expect(() => setIniValue(sample, 'Parameters', 'ServerPort', '1\n[Evil]')).toThrow(/one line/);
  });
});

describe('getIniValue', () => {
  it('strips trailing comments and misses unknown keys', () => {
    expect(getIniValue(sample, 'HTTPServer', 'ServerPort')).toBe('8890');
    expect(getIniValue(sample, 'HTTPServer', 'Nope')).toBeUndefined();
  });
});

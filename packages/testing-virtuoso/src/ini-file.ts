/** Values for `[Section] Key = value` entries of a virtuoso.ini, by section then key. */
export type IniOverrides = Readonly<Record<string, Readonly<Record<string, string | number>>>>;

const sectionHeader = /^\s*\[([^\]]+)\]\s*$/;

/**
 * Sets `key = value` in `[section]` of an ini text: replaces every existing entry of that key in
 * that section (virtuoso.ini repeats some keys, the last one wins there), or appends one at the end
 * of the section, or appends the section. Keys and sections match case-insensitively, as Virtuoso
 * reads them.
 *
 * @example
 * setIniValue('[HTTPServer]\nServerPort = 8890\n', 'HTTPServer', 'ServerPort', '127.0.0.1:9000');
 * // '[HTTPServer]\nServerPort = 127.0.0.1:9000\n'
 */
export function setIniValue(
  text: string,
  section: string,
  key: string,
  value: string | number,
): string {
  if (/[\r\n]/.test(String(value))) {
    throw new TypeError(`ini value for [${section}] ${key} must be one line`);
  }
  const lines = text.split('\n');
  const entry = `${key} = ${value}`;
  const keyPattern = new RegExp(`^\\s*${escapeRegExp(key)}\\s*=`, 'i');
  let current: string | undefined;
  let sectionFound = false;
  let replaced = false;
  let lastLineOfSection = -1;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const header = sectionHeader.exec(line);
    if (header) {
      current = header[1]?.trim().toLowerCase();
      if (current === section.toLowerCase()) {
        sectionFound = true;
        lastLineOfSection = index;
      }
      continue;
    }
    if (current !== section.toLowerCase()) continue;
    if (line.trim() !== '' && !line.trimStart().startsWith(';')) lastLineOfSection = index;
    if (keyPattern.test(line)) {
      lines[index] = entry;
      replaced = true;
    }
  }
  if (replaced) return lines.join('\n');
  if (sectionFound) {
    lines.splice(lastLineOfSection + 1, 0, entry);
    return lines.join('\n');
  }
  const separator = text.endsWith('\n') || text === '' ? '' : '\n';
  return `${text}${separator}\n[${section}]\n${entry}\n`;
}

/**
 * Reads `key` in `[section]` (the last entry wins, trailing `;` comments removed), or undefined.
 *
 * @example
 * getIniValue('[Parameters]\nServerPort = 1111 ; sql\n', 'Parameters', 'ServerPort'); // '1111'
 */
export function getIniValue(text: string, section: string, key: string): string | undefined {
  let current: string | undefined;
  let found: string | undefined;
  for (const line of text.split('\n')) {
    const header = sectionHeader.exec(line);
    if (header) {
      current = header[1]?.trim().toLowerCase();
      continue;
    }
    if (current !== section.toLowerCase()) continue;
    const match = /^\s*([^=;]+?)\s*=\s*(.*)$/.exec(line);
    if (match && match[1]?.toLowerCase() === key.toLowerCase()) {
      found = (match[2] ?? '').replace(/\s;.*$/, '').trim();
    }
  }
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

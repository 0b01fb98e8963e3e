import { isIPv6 } from 'node:net';

/**
 * The client a limit counts: an IPv4 address, or the /64 network of an IPv6 address (one host
 * usually holds a whole /64, so counting single IPv6 addresses would give it millions of buckets).
 * IPv4-mapped IPv6 addresses count as their IPv4 address; anything unreadable as `unknown`.
 *
 * @example
 * clientOfAddress('::ffff:10.0.0.7'); // '10.0.0.7'
 * clientOfAddress('2001:db8:1:2:3:4:5:6'); // '2001:db8:1:2::/64'
 */
export function clientOfAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

import { isIPv4, isIPv6 } from 'node:net';

/** Bits of an IPv6 address that name one client: a /64 is the smallest network a subscriber is given (RFC 6177). */
const CLIENT_PREFIX_GROUPS = 4;

/** The eight 16-bit groups of an IPv6 address (zone left off, an embedded IPv4 as two groups); undefined for anything else. */
function ipv6Groups(address: string): number[] | undefined {
  const bare = address.split('%')[0];
  if (!isIPv6(bare)) return undefined;
  let text = bare.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The client an address stands for, as the login throttle counts it: an IPv4 address whole
 * (written plain or IPv4-mapped, as a dual-stack socket reports it), an IPv6 address by its /64.
 * One IPv6 subscriber holds 2^64 addresses or more, so counting each alone would give a guesser
 * a fresh count for every try. Anything else (no socket address) is counted as written.
 */
export function addressBlock(address: string): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  return `${groups.slice(0, CLIENT_PREFIX_GROUPS).map((group) => group.toString(16)).join(':')}::/64`;
}

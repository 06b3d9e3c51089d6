/**
 * IPv6 literals (RFC 4291 text forms) as eight 16-bit groups: `::`, `::1`, `fe80::1%eth0`,
 * `[::ffff:127.0.0.1]`, `64:ff9b::7f00:1`. Brackets and a zone id are accepted and dropped: the
 * guard classifies the address, and the zone does not change what kind of address it is. Pure.
 */

export type Ipv6Groups = [number, number, number, number, number, number, number, number];

function parseGroups(text: string, dottedTailAllowed: boolean): number[] | undefined {
  if (text === '') return [];
  const groups: number[] = [];
  const pieces = text.split(':');
  for (const [index, piece] of pieces.entries()) {
    // The last piece may be a dotted quad (strict form only: four decimal octets).
    if (dottedTailAllowed && index === pieces.length - 1 && piece.includes('.')) {
      const octets = piece.split('.');
      if (octets.length !== 4 || !octets.every((o) => /^(0|[1-9][0-9]{0,2})$/.test(o) && Number(o) <= 255)) return undefined;
      const [a, b, c, d] = octets.map(Number) as [number, number, number, number];
      groups.push((a << 8) | b, (c << 8) | d);
      continue;
    }
    if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
    groups.push(parseInt(piece, 16));
  }
  return groups;
}

export function parseIpv6Literal(input: string): Ipv6Groups | undefined {
  let text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (!text.includes(':')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  if (halves.length === 1) {
    const groups = parseGroups(text, true);
    return groups?.length === 8 ? (groups as Ipv6Groups) : undefined;
  }
  const head = parseGroups(halves[0]!, false);
  const tail = parseGroups(halves[1]!, true);
  if (!head || !tail || head.length + tail.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail] as Ipv6Groups;
}

/** The IPv4 address held in two groups (as in ::ffff:a.b.c.d or 64:ff9b::a.b.c.d). */
export const ipv4FromGroups = (high: number, low: number): [number, number, number, number] => [high >> 8, high & 255, low >> 8, low & 255];

/** True when the address starts with the given prefix of `bits` bits. */
export function hasPrefix(groups: Ipv6Groups, prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 16) {
    const width = Math.min(16, bits - bit);
    const mask = (0xffff << (16 - width)) & 0xffff;
    const index = bit / 16;
    if (((groups[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

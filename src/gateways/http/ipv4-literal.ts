/**
 * IPv4 literals in every spelling a URL parser or inet_aton accepts: `127.0.0.1`, `127.1`,
 * `0x7f.1`, `0177.0.0.1`, `2130706433`, with an optional trailing dot. WHATWG URL already turns
 * these hostnames into dotted quads, but the address guard must not depend on who parsed the text
 * before it, so it reads them itself. Pure.
 */

/** One part of a literal: decimal, octal (leading 0) or hexadecimal (0x); undefined if neither. */
function parsePart(part: string): number | undefined {
  if (part === '') return undefined;
  if (/^0[xX][0-9a-fA-F]*$/.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return undefined;
}

/**
 * The four octets of an IPv4 literal, or undefined when the text is not one. As in inet_aton, the
 * last part fills all the bytes the earlier parts did not: `127.1` is 127.0.0.1 and `10.65535`
 * is 10.0.255.255.
 */
export function parseIpv4Literal(text: string): [number, number, number, number] | undefined {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  const parts = trimmed.split('.');
  if (parts.length < 1 || parts.length > 4) return undefined;
  const numbers = parts.map(parsePart);
  if (numbers.some((n) => n === undefined || !Number.isSafeInteger(n))) return undefined;
  const values = numbers as number[];
  const leading = values.slice(0, -1);
  const last = values[values.length - 1]!;
  if (leading.some((n) => n > 255)) return undefined;
  if (last >= 256 ** (4 - leading.length)) return undefined;
  let value = last;
  leading.forEach((n, index) => {
    value += n * 256 ** (3 - index);
  });
  return [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
}

export const formatIpv4 = (octets: readonly number[]) => octets.join('.');

/**
 * The address a request came from, for per-address limits. Koa's `ctx.ip` (app.proxy is on) is
 * the leftmost X-Forwarded-For entry, which any client writes itself: a limit keyed on it is no
 * limit. Here X-Forwarded-For is believed only when the peer is on a loopback, private or
 * unique-local address (a reverse proxy in front of us), and then only its last entry, the one
 * that proxy appended. A peer on a public address is the client itself. Pure.
 */
import ipaddr from 'ipaddr.js';

const PROXY_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat']);

function isProxyPeer(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // ::ffff:10.0.0.1 is read as 10.0.0.1
  return PROXY_RANGES.has(parsed.range());
}

export function sourceAddress(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
  const direct = peer ?? 'unknown';
  if (!isProxyPeer(direct) || forwardedFor === undefined) return direct;
  const entries = [forwardedFor]
    .flat()
    .join(',')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const last = entries.at(-1);
  return last !== undefined && ipaddr.isValid(last) ? ipaddr.process(last).toString() : direct;
}

/**
 * The key a per-address limit counts under: an IPv4 address itself, an IPv6 address by its /64
 * (one host usually holds a whole /64, so counting single IPv6 addresses would be no limit).
 */
export function addressLimitKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const groups = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${groups.join(':')}::/64`;
}

/**
 * Which IP addresses outbound requests to user-configured URLs may connect to (the SSRF guard,
 * OWASP API7). Pure: it classifies an address text; guarded-client.ts applies it to the address
 * actually connected to. Everything that is not plain public unicast is refused, including the
 * IPv6 forms that smuggle an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo).
 *
 * Parsing and the IANA special-purpose ranges come from ipaddr.js (hand-written address parsers
 * are the classic source of SSRF bypasses); this file only adds what the library does not name:
 * the cloud credential endpoints, finer reasons, and how an embedded IPv4 address decides.
 */
import ipaddr from 'ipaddr.js';

export type RefusalReason =
  | 'cloud_metadata'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'unique_local'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'benchmark'
  | 'documentation'
  | 'reserved'
  | 'teredo'
  | 'not_an_ip_address';

/** How an IPv6 address carried the IPv4 address that decided the verdict. */
export type Ipv4Embedding = 'ipv4_mapped' | 'ipv4_compatible' | 'ipv4_translated' | 'nat64' | '6to4';

export type AddressVerdict =
  | { allowed: true; embeddedIpv4?: string; via?: Ipv4Embedding }
  | { allowed: false; reason: RefusalReason; embeddedIpv4?: string; via?: Ipv4Embedding };

type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
type Rule<A extends IpAddress> = [range: [A, number], verdict: (address: A) => AddressVerdict];

const refuse = (reason: RefusalReason) => (): AddressVerdict => ({ allowed: false, reason });
const v4 = (cidr: string) => ipaddr.IPv4.parseCIDR(cidr);
const v6 = (cidr: string) => ipaddr.IPv6.parseCIDR(cidr);

/**
 * Checked before the library's ranges, most specific first. The credential endpoints are refused
 * even where private networks are allowed: no notification target lives there.
 */
const IPV4_RULES: Array<Rule<ipaddr.IPv4>> = [
  [v4('169.254.169.254/32'), refuse('cloud_metadata')], // AWS, GCP, Azure, OCI, DigitalOcean…
  [v4('169.254.170.2/32'), refuse('cloud_metadata')], // AWS ECS task metadata
  [v4('169.254.170.23/32'), refuse('cloud_metadata')], // EKS Pod Identity agent
  [v4('100.100.100.200/32'), refuse('cloud_metadata')], // Alibaba Cloud
  [v4('168.63.129.16/32'), refuse('cloud_metadata')], // Azure WireServer (public space, but host-local)
  [v4('192.0.0.192/32'), refuse('cloud_metadata')], // Oracle Cloud instance metadata
  [v4('0.0.0.0/32'), refuse('unspecified')],
  [v4('0.0.0.0/8'), refuse('reserved')], // "this network"; Linux connects 0.x to the local host
  [v4('192.0.2.0/24'), refuse('documentation')],
  [v4('198.51.100.0/24'), refuse('documentation')],
  [v4('203.0.113.0/24'), refuse('documentation')],
  [v4('198.18.0.0/15'), refuse('benchmark')],
];

/** ipaddr.js range names → reasons; 'unicast' (none of them) is the only allowed one. */
const IPV4_RANGE_REASONS: Record<string, RefusalReason> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link_local',
  loopback: 'loopback',
  carrierGradeNat: 'cgnat',
  private: 'private',
};

function classifyIpv4(address: ipaddr.IPv4): AddressVerdict {
  for (const [range, verdict] of IPV4_RULES) if (address.match(range)) return verdict(address);
  const range = address.range();
  if (range === 'unicast') return { allowed: true };
  return { allowed: false, reason: IPV4_RANGE_REASONS[range] ?? 'reserved' }; // reserved, as112, amt…
}

/** The verdict on an IPv6 address that embeds an IPv4 one is the verdict on the IPv4 address. */
function embedded(bytes: number[], via: Ipv4Embedding, alwaysRefuse: boolean): AddressVerdict {
  const ipv4 = new ipaddr.IPv4(bytes);
  const inner = classifyIpv4(ipv4);
  const embeddedIpv4 = ipv4.toString();
  if (!inner.allowed) return { allowed: false, reason: inner.reason, embeddedIpv4, via };
  // Deprecated forms have no legitimate use as a destination, whatever they carry.
  return alwaysRefuse
    ? { allowed: false, reason: 'reserved', embeddedIpv4, via }
    : { allowed: true, embeddedIpv4, via };
}
const lastFourBytes = (a: ipaddr.IPv6) => a.toByteArray().slice(12, 16);

/** Checked before the library's ranges, most specific first. */
const IPV6_RULES: Array<Rule<ipaddr.IPv6>> = [
  [v6('fd00:ec2::254/128'), refuse('cloud_metadata')], // AWS IMDS over IPv6
  [v6('fd00:ec2::23/128'), refuse('cloud_metadata')], // EKS Pod Identity agent over IPv6
  [v6('::/128'), refuse('unspecified')],
  [v6('::1/128'), refuse('loopback')],
  [v6('::ffff:0:0/96'), (a) => embedded(lastFourBytes(a), 'ipv4_mapped', false)],
  [v6('::/96'), (a) => embedded(lastFourBytes(a), 'ipv4_compatible', true)],
  [v6('::ffff:0:0:0/96'), (a) => embedded(lastFourBytes(a), 'ipv4_translated', true)],
  [v6('64:ff9b::/96'), (a) => embedded(lastFourBytes(a), 'nat64', false)],
  // Local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the operator's prefix
  // length, so nothing in it can be shown harmless. Refused whole, always (see guardAddress).
  [v6('64:ff9b:1::/48'), () => ({ allowed: false, reason: 'private', via: 'nat64' })],
  [v6('2001::/32'), refuse('teredo')], // the IPv4 address inside is obfuscated; never needed here
  [v6('2001:db8::/32'), refuse('documentation')],
  [v6('3fff::/20'), refuse('documentation')],
  [v6('2002::/16'), (a) => embedded(a.toByteArray().slice(2, 6), '6to4', false)],
];

const IPV6_RANGE_REASONS: Record<string, RefusalReason> = {
  linkLocal: 'link_local',
  multicast: 'multicast',
  uniqueLocal: 'unique_local',
  benchmarking: 'benchmark',
};
const GLOBAL_UNICAST = v6('2000::/3');

function classifyIpv6(address: ipaddr.IPv6): AddressVerdict {
  for (const [range, verdict] of IPV6_RULES) if (address.match(range)) return verdict(address);
  const range = address.range();
  if (range === 'unicast')
    return address.match(GLOBAL_UNICAST) ? { allowed: true } : { allowed: false, reason: 'reserved' };
  return { allowed: false, reason: IPV6_RANGE_REASONS[range] ?? 'reserved' }; // site-local, discard, ORCHID…
}

/** An IPv4 address written inside IPv6 must be four plain decimal octets, as WHATWG URL requires. */
const STRICT_DOTTED_TAIL = /:(0|[1-9][0-9]{0,2})(\.(0|[1-9][0-9]{0,2})){3}$/;

function dottedToGroups(dotted: string): string {
  const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * The address a literal denotes, or undefined. IPv4 in every spelling a URL parser or inet_aton
 * accepts (`127.1`, `0x7f.1`, `0177.0.0.1`, `2130706433`, a trailing dot); IPv6 with optional
 * brackets and zone id (the zone does not change what kind of address it is).
 */
export function parseIpAddress(input: string): IpAddress | undefined {
  const text = input.trim();
  if (text.includes(':')) {
    const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
    const [address, zone] = bare.split('%', 2) as [string, string | undefined];
    const tail = STRICT_DOTTED_TAIL.exec(address);
    if (
      address.includes('.') &&
      !(
        tail &&
        tail[0]
          .slice(1)
          .split('.')
          .every((octet) => Number(octet) <= 255)
      )
    )
      return undefined;
    // ipaddr.js reads `::a.b.c.d` as IPv4-mapped; written as hex groups it is what it says.
    const hex = address.replace(STRICT_DOTTED_TAIL, (tail) => `:${dottedToGroups(tail.slice(1))}`);
    const text6 = zone === undefined ? hex : `${hex}%${zone}`;
    return ipaddr.IPv6.isValid(text6) ? ipaddr.IPv6.parse(text6) : undefined;
  }
  const ipv4 = text.endsWith('.') ? text.slice(0, -1) : text;
  return ipaddr.IPv4.isValid(ipv4) ? ipaddr.IPv4.parse(ipv4) : undefined;
}

/** Classifies an IPv4 (any literal spelling) or IPv6 (brackets and zone id allowed) address. */
export function classifyAddress(text: string): AddressVerdict {
  const address = parseIpAddress(text);
  if (!address) return { allowed: false, reason: 'not_an_ip_address' };
  return address.kind() === 'ipv6' ? classifyIpv6(address as ipaddr.IPv6) : classifyIpv4(address as ipaddr.IPv4);
}

/** True when the text is an IP literal in any spelling (so no name resolution happens for it). */
export function isIpLiteral(text: string): boolean {
  const verdict = classifyAddress(text);
  return verdict.allowed || verdict.reason !== 'not_an_ip_address';
}

/**
 * The platform's policy: OUTBOUND_ALLOW_PRIVATE_NETWORKS opens private, loopback and the other
 * non-public ranges (on-premises chat servers, local test receivers), but never the cloud metadata
 * endpoints (no notification target legitimately lives there, and they hand out credentials) and
 * never a NAT64 detour to a refused IPv4 address (a private target is addressed directly; through
 * the translator it reaches whatever that address is on the translator's side).
 */
export function guardAddress(text: string, policy: { allowPrivateNetworks: boolean }): AddressVerdict {
  const verdict = classifyAddress(text);
  if (verdict.allowed || !policy.allowPrivateNetworks) return verdict;
  if (verdict.reason === 'cloud_metadata' || verdict.reason === 'not_an_ip_address' || verdict.via === 'nat64')
    return verdict;
  return { allowed: true, embeddedIpv4: verdict.embeddedIpv4, via: verdict.via };
}

/** Words for messages, e.g. "a loopback address". */
export function describeRefusal(reason: RefusalReason): string {
  const words: Record<RefusalReason, string> = {
    cloud_metadata: 'a cloud metadata endpoint',
    loopback: 'a loopback address',
    private: 'a private network address',
    link_local: 'a link-local address',
    cgnat: 'a carrier-grade NAT address',
    unique_local: 'a unique-local IPv6 address',
    multicast: 'a multicast address',
    unspecified: 'the unspecified address',
    broadcast: 'the broadcast address',
    benchmark: 'a benchmarking address',
    documentation: 'a documentation address',
    reserved: 'a reserved address',
    teredo: 'a Teredo tunnel address',
    not_an_ip_address: 'not an IP address',
  };
  return words[reason];
}

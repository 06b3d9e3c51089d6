/**
 * Which IP addresses outbound requests to user-configured URLs may connect to (the SSRF guard,
 * OWASP API7). Pure: it classifies an address text; guarded-client.ts applies it to the address
 * actually connected to. Everything that is not plain public unicast is refused, including the
 * IPv6 forms that smuggle an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo).
 */
import { formatIpv4, parseIpv4Literal } from './ipv4-literal.js';
import { hasPrefix, ipv4FromGroups, parseIpv6Literal, type Ipv6Groups } from './ipv6-literal.js';

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

type Ipv4Rule = [octets: [number, number, number, number], bits: number, reason: RefusalReason];

/** IANA special-purpose IPv4 registry plus the cloud metadata endpoints; most specific first. */
const IPV4_RULES: Ipv4Rule[] = [
  [[169, 254, 169, 254], 32, 'cloud_metadata'], // AWS, GCP, Azure, OCI, DigitalOcean…
  [[169, 254, 170, 2], 32, 'cloud_metadata'], // AWS ECS task metadata
  [[100, 100, 100, 200], 32, 'cloud_metadata'], // Alibaba Cloud
  [[255, 255, 255, 255], 32, 'broadcast'],
  [[0, 0, 0, 0], 32, 'unspecified'],
  [[0, 0, 0, 0], 8, 'reserved'], // "this network"; Linux connects 0.x to the local host
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'cgnat'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link_local'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'], // IETF protocol assignments
  [[192, 0, 2, 0], 24, 'documentation'],
  [[192, 88, 99, 0], 24, 'reserved'], // deprecated 6to4 relay anycast
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'benchmark'],
  [[198, 51, 100, 0], 24, 'documentation'],
  [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'],
];

const toUint32 = (o: readonly number[]) => ((o[0]! << 24) | (o[1]! << 16) | (o[2]! << 8) | o[3]!) >>> 0;

function classifyIpv4(octets: readonly number[]): AddressVerdict {
  const value = toUint32(octets);
  for (const [prefix, bits, reason] of IPV4_RULES) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === (toUint32(prefix) & mask) >>> 0) return { allowed: false, reason };
  }
  return { allowed: true };
}

/** The verdict on an IPv6 address that embeds an IPv4 one is the verdict on the IPv4 address. */
function embedded(octets: [number, number, number, number], via: Ipv4Embedding, alwaysRefuse: boolean): AddressVerdict {
  const inner = classifyIpv4(octets);
  const embeddedIpv4 = formatIpv4(octets);
  if (!inner.allowed) return { allowed: false, reason: inner.reason, embeddedIpv4, via };
  // Deprecated forms have no legitimate use as a destination, whatever they carry.
  return alwaysRefuse ? { allowed: false, reason: 'reserved', embeddedIpv4, via } : { allowed: true, embeddedIpv4, via };
}

type Ipv6Rule = [prefix: number[], bits: number, verdict: (g: Ipv6Groups) => AddressVerdict];
const refuse = (reason: RefusalReason) => () => ({ allowed: false, reason }) as AddressVerdict;

/** Most specific first; an address matching none is global unicast only inside 2000::/3. */
const IPV6_RULES: Ipv6Rule[] = [
  [[0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254], 128, refuse('cloud_metadata')], // AWS IMDS over IPv6
  [[0, 0, 0, 0, 0, 0, 0, 0], 128, refuse('unspecified')],
  [[0, 0, 0, 0, 0, 0, 0, 1], 128, refuse('loopback')],
  [[0, 0, 0, 0, 0, 0xffff], 96, (g) => embedded(ipv4FromGroups(g[6], g[7]), 'ipv4_mapped', false)],
  [[0, 0, 0, 0, 0, 0], 96, (g) => embedded(ipv4FromGroups(g[6], g[7]), 'ipv4_compatible', true)],
  [[0, 0, 0, 0, 0xffff, 0], 96, (g) => embedded(ipv4FromGroups(g[6], g[7]), 'ipv4_translated', true)],
  [[0x64, 0xff9b, 0, 0, 0, 0], 96, (g) => embedded(ipv4FromGroups(g[6], g[7]), 'nat64', false)],
  [[0x64, 0xff9b, 1], 48, refuse('private')], // local-use NAT64
  [[0x100, 0, 0, 0], 64, refuse('reserved')], // discard-only
  [[0x2001, 0], 32, refuse('teredo')], // the IPv4 address inside is obfuscated; never needed here
  [[0x2001, 0x0db8], 32, refuse('documentation')],
  [[0x2001, 0], 23, refuse('reserved')], // IETF protocol assignments (ORCHID, AMT, …)
  [[0x2002], 16, (g) => embedded(ipv4FromGroups(g[1], g[2]), '6to4', false)],
  [[0x3fff], 20, refuse('documentation')],
  [[0xfc00], 7, refuse('unique_local')],
  [[0xfe80], 10, refuse('link_local')],
  [[0xfec0], 10, refuse('reserved')], // deprecated site-local
  [[0xff00], 8, refuse('multicast')],
  [[0x2000], 3, () => ({ allowed: true })],
];

function classifyIpv6(groups: Ipv6Groups): AddressVerdict {
  for (const [prefix, bits, verdict] of IPV6_RULES) {
    if (hasPrefix(groups, prefix, bits)) return verdict(groups);
  }
  return { allowed: false, reason: 'reserved' }; // outside global unicast: unassigned
}

/** Classifies an IPv4 (any literal spelling) or IPv6 (brackets and zone id allowed) address. */
export function classifyAddress(text: string): AddressVerdict {
  const v6 = parseIpv6Literal(text.trim());
  if (v6) return classifyIpv6(v6);
  const v4 = parseIpv4Literal(text.trim());
  if (v4) return classifyIpv4(v4);
  return { allowed: false, reason: 'not_an_ip_address' };
}

/** True when the text is an IP literal in any spelling (so no name resolution happens for it). */
export function isIpLiteral(text: string): boolean {
  const verdict = classifyAddress(text);
  return verdict.allowed || verdict.reason !== 'not_an_ip_address';
}

/**
 * The platform's policy: OUTBOUND_ALLOW_PRIVATE_NETWORKS opens private, loopback and the other
 * non-public ranges (on-premises chat servers, local test receivers), but never the cloud metadata
 * endpoints: no notification target legitimately lives there, and they hand out credentials.
 */
export function guardAddress(text: string, policy: { allowPrivateNetworks: boolean }): AddressVerdict {
  const verdict = classifyAddress(text);
  if (verdict.allowed || !policy.allowPrivateNetworks) return verdict;
  if (verdict.reason === 'cloud_metadata' || verdict.reason === 'not_an_ip_address') return verdict;
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

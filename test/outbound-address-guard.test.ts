import test from 'ava';
import { classifyAddress, guardAddress, type RefusalReason } from '../src/gateways/http/address-guard.js';
import { parseIpAddress } from '../src/gateways/http/address-guard.js';

/** The dotted quad (or undefined) a text reads as, through the guard's own parser. */
const parseIpv4Literal = (text: string) => {
  const address = parseIpAddress(text);
  return address?.kind() === 'ipv4' ? address.toByteArray() : undefined;
};
/** The eight groups (or undefined) a text reads as, through the guard's own parser. */
const parseIpv6Literal = (text: string) => {
  const address = parseIpAddress(text);
  return address?.kind() === 'ipv6' ? (address as unknown as { parts: number[] }).parts : undefined;
};

const refused: Array<[string, RefusalReason]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['127.1', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['2130706433', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['127.0.0.1.', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.0.1', 'link_local'],
  ['169.254.169.254', 'cloud_metadata'],
  ['169.254.170.2', 'cloud_metadata'],
  ['100.100.100.200', 'cloud_metadata'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['0.0.0.0', 'unspecified'],
  ['0', 'unspecified'],
  ['0.1.2.3', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['198.18.0.1', 'benchmark'],
  ['198.19.255.255', 'benchmark'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['192.0.0.8', 'reserved'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf::1', 'link_local'],
  ['fc00::1', 'unique_local'],
  ['fd00::1', 'unique_local'],
  ['fd00:ec2::254', 'cloud_metadata'],
  ['ff02::1', 'multicast'],
  ['fec0::1', 'reserved'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[::ffff:7f00:1]', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'cloud_metadata'],
  ['::ffff:a9fe:a9fe', 'cloud_metadata'],
  ['::127.0.0.1', 'loopback'],
  ['::7f00:1', 'loopback'],
  ['::8.8.8.8', 'reserved'],
  ['::ffff:0:8.8.8.8', 'reserved'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'cloud_metadata'],
  ['64:ff9b:1::1', 'private'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:a9fe:a9fe::', 'cloud_metadata'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['2001::1', 'teredo'],
  ['2001:db8::1', 'documentation'],
  ['2001:10::1', 'reserved'],
  ['100::1', 'reserved'],
  ['3fff::1', 'documentation'],
  ['4000::1', 'reserved'],
  ['localhost', 'not_an_ip_address'],
  ['example.com', 'not_an_ip_address'],
  ['256.1.1.1', 'not_an_ip_address'],
  ['1.2.3.4.5', 'not_an_ip_address'],
  ['1::2::3', 'not_an_ip_address'],
  ['', 'not_an_ip_address'],
];

for (const [address, reason] of refused) {
  test(`classifier: ${address || '(empty)'} is refused as ${reason}`, (t) => {
    t.like(classifyAddress(address), { allowed: false, reason });
  });
}

const allowed = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.32.0.1',
  '172.15.255.255',
  '100.63.255.255',
  '100.128.0.1',
  '192.169.0.1',
  '169.253.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:81b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
  '134744072',
];

for (const address of allowed) {
  test(`classifier: ${address} is public and allowed`, (t) => {
    t.true(classifyAddress(address).allowed);
  });
}

test('an embedded IPv4 address is reported with the form that carried it', (t) => {
  t.deepEqual(classifyAddress('::ffff:127.0.0.1'), {
    allowed: false,
    reason: 'loopback',
    embeddedIpv4: '127.0.0.1',
    via: 'ipv4_mapped',
  });
  t.deepEqual(classifyAddress('2002:a9fe:a9fe::1'), {
    allowed: false,
    reason: 'cloud_metadata',
    embeddedIpv4: '169.254.169.254',
    via: '6to4',
  });
  t.deepEqual(classifyAddress('64:ff9b::808:808'), { allowed: true, embeddedIpv4: '8.8.8.8', via: 'nat64' });
});

test('the private-network switch opens private ranges but never cloud metadata', (t) => {
  const open = { allowPrivateNetworks: true };
  for (const address of ['127.0.0.1', '10.1.2.3', '::1', 'fd00::1', '100.64.0.1', '::ffff:192.168.0.1'])
    t.true(guardAddress(address, open).allowed, address);
  for (const address of [
    '169.254.169.254',
    'fd00:ec2::254',
    '100.100.100.200',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
  ]) {
    t.like(guardAddress(address, open), { allowed: false, reason: 'cloud_metadata' }, address);
  }
  t.like(guardAddress('127.0.0.1', { allowPrivateNetworks: false }), { allowed: false, reason: 'loopback' });
});

test('IPv4 literals are read as inet_aton and WHATWG URL read them', (t) => {
  const cases: Array<[string, string | undefined]> = [
    ['127.1', '127.0.0.1'],
    ['10.65535', '10.0.255.255'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0X7F.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['4294967295', '255.255.255.255'],
    ['4294967296', undefined],
    ['1.2.3.256', undefined],
    ['1.2.65536', undefined],
    ['08.1.1.1', undefined], // 08 is neither octal nor plain decimal
    ['1..1', undefined],
    ['abc', undefined],
  ];
  for (const [text, expected] of cases) t.is(parseIpv4Literal(text)?.join('.'), expected, text);
  // The classifier and WHATWG URL agree on what these hosts are.
  for (const text of ['127.1', '0x7f.1', '2130706433', '0177.0.0.1', '10.65535']) {
    t.is(new URL(`http://${text}/`).hostname, parseIpv4Literal(text)!.join('.'), text);
  }
});

test('IPv6 literals are read in every text form', (t) => {
  t.deepEqual(parseIpv6Literal('::'), [0, 0, 0, 0, 0, 0, 0, 0]);
  t.deepEqual(parseIpv6Literal('1::'), [1, 0, 0, 0, 0, 0, 0, 0]);
  t.deepEqual(parseIpv6Literal('[::ffff:127.0.0.1]'), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  t.deepEqual(parseIpv6Literal('1:2:3:4:5:6:7:8'), [1, 2, 3, 4, 5, 6, 7, 8]);
  for (const bad of [
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    ':1',
    '1:::2',
    '12345::',
    '1.2.3.4::',
    '::1.2.3',
    'g::1',
    '1:2:3:4:5:6:7::8',
  ]) {
    t.is(parseIpv6Literal(bad), undefined, bad);
  }
});

/** Issue 25 item 10: endpoints that hand out credentials, and NAT64 detours to refused addresses. */
const alwaysRefused: Array<[string, RefusalReason]> = [
  ['169.254.170.23', 'cloud_metadata'], // EKS Pod Identity agent
  ['fd00:ec2::23', 'cloud_metadata'], // EKS Pod Identity agent over IPv6
  ['168.63.129.16', 'cloud_metadata'], // Azure WireServer
  ['192.0.0.192', 'cloud_metadata'], // Oracle Cloud instance metadata
  ['::ffff:168.63.129.16', 'cloud_metadata'],
  ['64:ff9b::a9fe:aa17', 'cloud_metadata'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['64:ff9b::192.168.1.1', 'private'],
  ['64:ff9b::100.64.0.1', 'cgnat'],
  ['64:ff9b:1::1', 'private'],
  ['64:ff9b:1:7f00:0:100::', 'private'], // local-use NAT64 (RFC 8215) of 127.0.0.1 with a /48 prefix
  ['64:ff9b:1:ffff::a9fe:a9fe', 'private'],
];

for (const [address, reason] of alwaysRefused) {
  test(`guard: ${address} is refused as ${reason} whether private networks are allowed or not`, (t) => {
    t.like(guardAddress(address, { allowPrivateNetworks: false }), { allowed: false, reason });
    t.like(guardAddress(address, { allowPrivateNetworks: true }), { allowed: false, reason });
  });
}

test('a NAT64 form of a public IPv4 address stays allowed, and octal/hex/short IPv4 forms inside IPv6 are not read', (t) => {
  t.true(guardAddress('64:ff9b::8.8.8.8', { allowPrivateNetworks: false }).allowed);
  for (const text of ['::ffff:127.1', '64:ff9b::0x7f.1', '::ffff:0177.0.0.1', '::ffff:1.2.3.300', '::ffff:256.0.0.1'])
    t.like(classifyAddress(text), { allowed: false, reason: 'not_an_ip_address' }, text);
});

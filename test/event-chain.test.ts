/**
 * The chain's definition, pinned (src/eventstore/event-chain.mjs; docs, operations: "Tamper-evident
 * audit log"): what an auditor reimplements must give these exact texts and hashes.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { canonicalJson, chainHash, chainHashOfCanonical } from '../src/eventstore/event-chain.mjs';

test('canonical JSON sorts keys at every level, keeps array order, drops undefined, writes dates and numbers as JSON does', (t) => {
  const proto = JSON.parse('{"__proto__": {"b": 1, "a": 2}}');
  t.is(
    canonicalJson({
      b: [3, { d: 1, c: undefined, a: 'é\n' }],
      a: { z: null, y: 1e21, x: -0, w: 0.1 },
      at: new Date('2026-01-02T03:04:05.000Z'),
      ...proto,
    }),
    '{"__proto__":{"a":2,"b":1},"a":{"w":0.1,"x":0,"y":1e+21,"z":null},"at":"2026-01-02T03:04:05.000Z","b":[3,{"a":"é\\n","d":1}]}',
  );
  t.is(
    canonicalJson({ B: 1, a: 2, _: 3 }),
    '{"B":1,"_":3,"a":2}',
    'UTF-16 code unit order: upper case, underscore, lower case',
  );
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  t.throws(() => canonicalJson(circular), { message: /circular/ });
  t.throws(() => canonicalJson({ n: 1n }), { message: /BigInt/ });
});

test('the hash is SHA-256 of the canonical { data, metadata, previousHash, revision, stream, type }, revision as a decimal string', (t) => {
  const event = {
    stream: 'incident-1',
    revision: 2n,
    type: 'IncidentAcknowledged',
    data: { by: 'u1', at: '2026-01-01T00:00:00.000Z' },
    metadata: { tenantId: 't1', actor: 'u1' },
    previousHash: 'ab'.repeat(32),
  };
  const text = `{"data":{"at":"2026-01-01T00:00:00.000Z","by":"u1"},"metadata":{"actor":"u1","tenantId":"t1"},"previousHash":"${'ab'.repeat(32)}","revision":"2","stream":"incident-1","type":"IncidentAcknowledged"}`;
  const expected = createHash('sha256').update(text, 'utf8').digest('hex');
  t.is(chainHash(event), expected);
  t.is(chainHash({ ...event, revision: '2' }), expected, 'a revision given as a string or number hashes alike');
  t.is(
    chainHashOfCanonical(
      'incident-1',
      2,
      'IncidentAcknowledged',
      canonicalJson(event.data),
      canonicalJson(event.metadata),
      event.previousHash,
    ),
    expected,
  );
  t.not(chainHash({ ...event, previousHash: null }), expected);
});

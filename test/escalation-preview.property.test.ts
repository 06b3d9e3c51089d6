/**
 * The escalation preview against the escalation manager over many policies (seeded, so a failure
 * repeats): random stages, delays, repeats and targets over a directory of plain maps in which the
 * on-call person changes every 7 minutes and some people have no phone or are deactivated, some
 * groups are empty, some channels gone. For a trigger at T0, every (time, stage, cycle, recipient,
 * medium) the preview lists and every unreachable target with its reason must be exactly what the
 * manager then fires, delivers and records, up to the last stage the preview lists.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { StageSnapshot } from '../src/events/escalation.js';
import { incidentStream } from '../src/events/incident.js';
import { previewEscalation } from '../src/process/escalation/escalation-preview.js';
import type { ContactChannel, ContactUser, TargetDirectory } from '../src/process/escalation/target-resolution.js';
import { createHarness, T0, TENANT, user } from './support/escalation-harness.js';

const POLICIES = 25;
const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** mulberry32: a small seeded generator. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const people: ContactUser[] = [
  user(id(1), { phone: '+447700900001' }),
  user(id(2)),
  user(id(3), { phone: '+447700900003' }),
  user(id(4), { active: false }),
  user(id(5), { phone: '+447700900005' }),
];
const groups = new Map<string, ContactUser[]>([
  [id(11), [people[0]!, people[1]!]],
  [id(12), []],
  [id(13), [people[2]!, people[4]!]],
]);
const channels = new Map<string, ContactChannel>([
  [id(21), { id: id(21), type: 'chat', config: { webhook_url: 'https://chat.example/x', channel_name: '#ops' } }],
]);
const schedules = [id(31), id(32), id(33)];

const directory: TargetDirectory = {
  user: async (_tenant, userId) => people.find((p) => p.id === userId) ?? null,
  activeGroupMembers: async (_tenant, groupId) => groups.get(groupId)?.filter((p) => p.active) ?? null,
  channel: async (_tenant, channelId) => channels.get(channelId) ?? null,
  // 31 hands over every 7 minutes among people 1, 3, 5; 32 has nobody; 33 is gone.
  onCall: async (_tenant, scheduleId, at) => {
    if (scheduleId === id(33)) return 'no_schedule';
    if (scheduleId === id(32)) return null;
    const turn = Math.floor((at.getTime() - T0) / (7 * 60_000));
    return {
      ...[people[0]!, people[2]!, people[4]!][((turn % 3) + 3) % 3]!,
      source: { source: 'layer', layerIndex: 0 },
    };
  },
};

function randomPolicy(random: () => number): { stages: StageSnapshot[]; repeatIntervalMinutes: number } {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const media = () => [
    ...new Set(Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(['email', 'sms', 'chat'] as const))),
  ];
  const target = () => {
    const type = pick(['user', 'group', 'schedule', 'channel'] as const);
    if (type === 'channel') return { type, id: pick([id(21), id(22)]), channels: [] };
    const ids =
      type === 'user' ? [...people.map((p) => p.id), id(9)] : type === 'group' ? [...groups.keys(), id(19)] : schedules;
    return { type, id: pick(ids), channels: media() };
  };
  const stages = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, index): StageSnapshot => {
    const targets = Array.from({ length: 1 + Math.floor(random() * 3) }, target).filter(
      (t, at, all) => all.findIndex((o) => o.type === t.type && o.id === t.id) === at,
    );
    return { stageOrder: index + 1, delayMinutes: index === 0 ? 0 : 1 + Math.floor(random() * 20), targets };
  });
  return { stages, repeatIntervalMinutes: random() < 0.5 ? 0 : 5 + Math.floor(random() * 20) };
}

test(`${POLICIES} random policies: the preview lists what the manager fires, delivers and records`, async (t) => {
  const random = seeded(30);
  for (let round = 0; round < POLICIES; round++) {
    const plan = randomPolicy(random);
    const previewed = await previewEscalation(directory, TENANT, plan, new Date(T0), 2);
    const h = createHarness({ ...plan, directory });
    const incident = randomUUID();
    await h.trigger(incident);
    h.wakeAll(incident);
    await h.advanceTo(previewed.at(-1)!.firesAt.getTime());

    const expected = previewed
      .flatMap((stage) =>
        stage.recipients.map(({ recipient }) =>
          recipient.unreachable === null
            ? `${stage.firesAt.getTime() - T0} ${stage.stageOrder}:${stage.cycle}:${recipient.key}:${recipient.medium}`
            : `unreachable ${stage.stageOrder}:${stage.cycle} ${recipient.via.type}:${recipient.via.id} ${recipient.medium} ${recipient.unreachable}`,
        ),
      )
      .sort();
    const prefix = `${incident}:stage:`;
    const failed = (await h.eventStore.readStream(incidentStream(incident)))
      .filter((e) => e.type === 'NotificationFailed')
      .map((e) => e.data as any);
    const actual = [
      ...h.delivered.map((d) => `${d.at} ${d.key.slice(prefix.length)}`),
      ...failed.map(
        (f) => `unreachable ${f.stageOrder}:${f.cycle} ${f.via.type}:${f.via.id} ${f.medium} ${f.error.message}`,
      ),
    ].sort();
    t.deepEqual(actual, expected, `policy ${round}: ${JSON.stringify(plan)}`);
    await h.close();
  }
});

/**
 * The auditor's offline check (src/verify-export.mjs) of an incident history exported from
 * `GET /api/v1/incidents/{id}/events`: the saved answer verifies with Node alone; a changed field,
 * a removed event or a changed hash in the file is named.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const dir = mkdtempSync(join(tmpdir(), 'ww-export-'));
/** The documented command, run on `answer` saved to a file. */
function verifyExport(name: string, answer: unknown) {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(answer, null, 2));
  return spawnSync(process.execPath, ['src/verify-export.mjs', file], { encoding: 'utf8' });
}

test('an exported incident history verifies offline, and any change to it is named', async (t) => {
  const app = await startTestApp({ env: { ALERT_EVALUATION_INTERVAL_SECONDS: '1' } });
  t.teardown(() => app.close());
  const caller = app.newTenant();
  const channel = await app.request('POST', '/notification-channels', {
    caller,
    body: { name: 'ops', type: 'chat', config: { webhook_url: 'https://chat.example/hook', channel_name: '#ops' } },
  });
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: 'DBA',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    },
  });
  await app.request('POST', '/api/v1/simulator/metrics', {
    caller,
    body: { metric: 'queue_time_seconds', value: 45, duration_seconds: 3600 },
  });
  const rule = await app.request('POST', '/api/v1/alert-rules', {
    caller,
    body: {
      name: 'Queue wait',
      metric: 'queue_time_seconds',
      condition: 'gt',
      threshold: 30,
      evaluation_window_minutes: 0,
      severity: 'high',
      escalation_policy_id: policy.body.data.id,
    },
  });
  const incidents = async () =>
    (await app.request('GET', `/api/v1/incidents?rule_id=${rule.body.data.id}`, { caller })).body.data as {
      id: string;
    }[];
  await waitFor(async () => (await incidents()).length > 0, { timeoutMs: 10_000, message: 'an incident' });
  const [incident] = await incidents();
  t.is(
    (await app.request('POST', `/api/v1/incidents/${incident!.id}/notes`, { caller, body: { text: 'looking' } }))
      .status,
    201,
  );
  t.is((await app.request('POST', `/api/v1/incidents/${incident!.id}/acknowledge`, { caller })).status, 200);

  const exported = (await app.request('GET', `/api/v1/incidents/${incident!.id}/events`, { caller })).body;
  const events = exported.data as {
    type: string;
    revision: string;
    hash: string | null;
    previous_hash: string | null;
    data: Record<string, unknown>;
    log_chain_start: string | null;
    stream_retention: boolean;
  }[];
  t.true(events.length >= 3);
  t.true(
    events.every((event) => event.log_chain_start === '1' && event.stream_retention === false),
    'a log created with the chain: every event from position 1 is hashed; incidents have no retention',
  );
  t.is(events[0]!.previous_hash, null);
  events
    .slice(1)
    .forEach((event, i) =>
      t.is(event.previous_hash, events[i]!.hash, `revision ${event.revision} links to the one before`),
    );

  const intact = verifyExport('intact', exported);
  t.is(intact.status, 0, intact.stderr);
  t.regex(intact.stdout, new RegExp(`history intact: ${events.length} events; last hash ${events.at(-1)!.hash}`));
  t.is(verifyExport('array', events).status, 0, 'the data array alone verifies too');

  const noted = events.findIndex((event) => event.type === 'IncidentNoteAdded');
  t.true(noted > 0);
  const changed = structuredClone(events);
  changed[noted]!.data = { ...changed[noted]!.data, text: 'nothing to see' };
  const edited = verifyExport('edited', { data: changed });
  t.is(edited.status, 1);
  t.regex(edited.stderr, new RegExp(`broken at stream incident-\\S+ revision ${noted} \\(content\\)`));

  const removed = verifyExport('removed', { data: events.filter((_, i) => i !== noted) });
  t.is(removed.status, 1);
  t.regex(
    removed.stderr,
    new RegExp(`revision ${noted + 1} \\(gap\\): expected revision ${noted}, found revision ${noted + 1}`),
  );

  const rehashed = structuredClone(events);
  rehashed[0]!.hash = 'f'.repeat(64);
  t.regex(verifyExport('rehashed', rehashed).stderr, /revision 0 \(content\)/);

  // What the server answers once revisions 0–1 were deleted from events.db: the rest still hashes and links.
  const oldestDeleted = verifyExport('oldest-deleted', { data: events.slice(2) });
  t.is(oldestDeleted.status, 1);
  t.regex(
    oldestDeleted.stderr,
    /broken at stream incident-\S+ revision 2 \(start\): expected revision 0, found revision 2/,
  );
  t.is(
    verifyExport(
      'retained',
      events.slice(2).map((event) => ({ ...event, stream_retention: true })),
    ).status,
    0,
    'retention may remove the oldest events',
  );

  // Every hash removed and an event edited: in a log whose chain started before these events, that is no legacy history.
  const unhashed = events.map((event) => ({ ...event, hash: null, previous_hash: null }));
  unhashed[noted]!.data = { ...unhashed[noted]!.data, text: 'nothing to see' };
  const stripped = verifyExport('stripped', unhashed);
  t.is(stripped.status, 1);
  t.regex(stripped.stderr, /revision 0 \(unhashed\): expected a hash, found none/);
  t.regex(stripped.stderr, new RegExp(`^${events.length} breaks in ${events.length} events`, 'm'));

  // An older export without the chain start: judged as before, and the output says what was not judged.
  const older = verifyExport(
    'older',
    events.slice(2).map(({ log_chain_start: _s, stream_retention: _r, ...event }) => event),
  );
  t.is(older.status, 0, older.stderr);
  t.regex(older.stdout, /no log_chain_start in the file .*: unhashed events and a missing start not judged/);

  t.is(verifyExport('not-a-history', { hello: 1 }).status, 2);
});

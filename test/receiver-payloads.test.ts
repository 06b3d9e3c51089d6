/**
 * The receivers' pure readers, table-driven: RFC 6901 JSON Pointers (the RFC's own examples), the
 * generic JSON reader under its configuration, the integration body's `config` checked per kind
 * (each mistake named at its path), Alertmanager's webhook payload version 4 per fingerprint and
 * per group key, and CloudWatch alarm notifications.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readAlertmanagerWebhook } from '../commands/alertmanager-webhook.js';
import { readGenericJson } from '../commands/generic-json.js';
import { resolvePointer } from '../commands/json-pointer.js';
import type { RoutedIntegration } from '../commands/routing-key-gate.js';
import { readCloudWatchAlarm, readSnsMessage } from '../commands/sns-message.js';
import { integrationBodySchema } from '../src/contract/bodies/integrations.js';
import { DEFAULT_SNS_TRUSTED_URL_PATTERN } from '../src/config.js';
import { snsStringToSign, trustedSnsUrl, type SnsMessage } from '../src/gateways/sns/sns-signature.js';
import { zodFieldErrors } from '../src/http/error-handler.js';

const integration = (kind: RoutedIntegration['kind'], config: Record<string, unknown> = {}): RoutedIntegration => ({
  id: '00000000-0000-4000-8000-0000000000e1',
  tenantId: 't1',
  kind,
  escalationPolicyId: '00000000-0000-4000-8000-0000000000c1',
  severityMap: { critical: 'critical', warning: 'medium', P1: 'critical' },
  defaultSeverity: 'high',
  config,
});

// RFC 6901 section 5's document and pointers.
const RFC_DOCUMENT = {
  foo: ['bar', 'baz'],
  '': 0,
  'a/b': 1,
  'c%d': 2,
  'e^f': 3,
  'g|h': 4,
  'i\\j': 5,
  'k"l': 6,
  ' ': 7,
  'm~n': 8,
};
for (const [pointer, expected] of [
  ['', RFC_DOCUMENT],
  ['/foo', ['bar', 'baz']],
  ['/foo/0', 'bar'],
  ['/', 0],
  ['/a~1b', 1],
  ['/c%d', 2],
  ['/e^f', 3],
  ['/g|h', 4],
  ['/i\\j', 5],
  ['/k"l', 6],
  ['/ ', 7],
  ['/m~0n', 8],
  ['/foo/2', undefined],
  ['/foo/01', undefined],
  ['/missing/deeper', undefined],
  ['/constructor', undefined],
] as const)
  test(`JSON Pointer ${JSON.stringify(pointer)}`, (t) => t.deepEqual(resolvePointer(RFC_DOCUMENT, pointer), expected));

const GENERIC = {
  dedup_key: '/alert/id',
  title: '/alert/title',
  severity: '/alert/level',
  action: '/state',
  action_map: { firing: 'trigger', acked: 'acknowledge', ok: 'resolve' },
};
const generic = integration('generic', GENERIC);

for (const [name, document, expected] of [
  [
    'a firing alert triggers, its level mapped',
    { state: 'firing', alert: { id: 'disk-1', title: 'Disk full', level: 'P1' } },
    { dedupKey: 'disk-1', action: 'trigger', title: 'Disk full', severity: 'critical' },
  ],
  [
    'a number is a dedup key; an unmapped level takes the default',
    { state: 'firing', alert: { id: 42, title: 'Late load', level: 'P9' } },
    { dedupKey: '42', action: 'trigger', title: 'Late load', severity: 'high' },
  ],
  [
    'acked acknowledges, with no title needed',
    { state: 'acked', alert: { id: 'disk-1' } },
    { dedupKey: 'disk-1', action: 'acknowledge', title: null, severity: 'high' },
  ],
  ['ok resolves', { state: 'ok', alert: { id: 'disk-1' } }, { dedupKey: 'disk-1', action: 'resolve', title: null }],
] as const)
  test(`generic JSON: ${name}`, (t) => {
    const read = readGenericJson(document, generic);
    if (!read.ok) return t.fail(JSON.stringify(read.errors));
    t.like(read.value, expected);
    t.deepEqual(read.value.sender.custom_details, document, "the caller's document is kept");
  });

for (const [name, document, paths] of [
  ['no dedup key', { state: 'firing', alert: { title: 'x' } }, ['/alert/id']],
  ['an object as dedup key', { state: 'firing', alert: { id: {}, title: 'x' } }, ['/alert/id']],
  ['an unknown action word', { state: 'exploded', alert: { id: 'a', title: 'x' } }, ['/state']],
  ['a trigger without a title', { state: 'firing', alert: { id: 'a' } }, ['/alert/title']],
  ['a title that is not a string', { state: 'firing', alert: { id: 'a', title: 7 } }, ['/alert/title']],
  ['a severity that is an object', { state: 'firing', alert: { id: 'a', title: 'x', level: {} } }, ['/alert/level']],
  ['not an object at all', 'firing', ['/alert/id', '/state', '/alert/title']],
] as const)
  test(`generic JSON refused: ${name}`, (t) => {
    const read = readGenericJson(document, generic);
    t.false(read.ok);
    if (!read.ok) t.deepEqual(read.errors.map((error) => error.path).sort(), [...paths].sort());
  });

test('generic JSON without an action pointer: every event triggers', (t) => {
  const read = readGenericJson({ id: 'x', msg: 'hello' }, integration('generic', { dedup_key: '/id', title: '/msg' }));
  t.true(read.ok && read.value.action === 'trigger');
});

const body = (kind: string, config: unknown) => ({
  name: 'n',
  kind,
  escalation_policy_id: '00000000-0000-4000-8000-0000000000c1',
  config,
});
for (const [kind, config, paths] of [
  ['generic', {}, ['/config/dedup_key', '/config/title']],
  ['generic', { dedup_key: 'id', title: '/t' }, ['/config/dedup_key']],
  ['generic', { dedup_key: '/id', title: '/t~2' }, ['/config/title']],
  ['generic', { dedup_key: '/id', title: '/t', action_map: { fire: 'explode' } }, ['/config/action_map/fire']],
  ['generic', { dedup_key: '/id', title: '/t', extra: 1 }, ['/config']],
  ['alertmanager', { incident_per: 'alertname' }, ['/config/incident_per']],
  ['sns', { topic: 'x' }, ['/config']],
  ['sns', { topic_arns: ['arn:aws:sns:eu-west-1:123456789012:ok', 'redshift-alarms'] }, ['/config/topic_arns/1']],
  ['events_v2', { anything: true }, ['/config']],
] as const)
  test(`integration config refused: ${kind} ${JSON.stringify(config)}`, (t) => {
    const parsed = integrationBodySchema.safeParse(body(kind, config));
    t.false(parsed.success);
    if (!parsed.success)
      t.deepEqual(
        zodFieldErrors(parsed.error)
          .map((error) => error.path)
          .sort(),
        [...paths].sort(),
      );
  });
for (const [kind, config] of [
  ['generic', { dedup_key: '/id', title: '' }],
  ['generic', GENERIC],
  ['alertmanager', {}],
  ['alertmanager', { incident_per: 'group_key' }],
  ['sns', {}],
  [
    'sns',
    {
      topic_arns: [
        'arn:aws:sns:eu-west-1:123456789012:redshift-alarms',
        'arn:aws-cn:sns:cn-north-1:123456789012:a.fifo',
      ],
    },
  ],
  ['events_v2', undefined],
] as const)
  test(`integration config taken: ${kind} ${JSON.stringify(config)}`, (t) =>
    t.true(integrationBodySchema.safeParse(body(kind, config)).success));

// Alertmanager's webhook payload version 4, as its notify/webhook sends it.
const amAlert = (fingerprint: string, status: 'firing' | 'resolved', labels: Record<string, string> = {}) => ({
  status,
  labels: { alertname: 'WarehouseQueueBacklog', severity: 'warning', ...labels },
  annotations: { summary: `backlog on ${fingerprint}`, runbook: 'https://runbooks/q' },
  startsAt: '2026-11-28T10:00:00.123456789Z',
  endsAt: status === 'resolved' ? '2026-11-28T10:05:00Z' : '0001-01-01T00:00:00Z',
  generatorURL: 'http://prometheus:9090/graph?g0.expr=up',
  fingerprint,
});
const amPayload = (alerts: unknown[], status = 'firing') => ({
  receiver: 'warehouse-watch',
  status,
  alerts,
  groupLabels: { alertname: 'WarehouseQueueBacklog' },
  commonLabels: { alertname: 'WarehouseQueueBacklog', severity: 'critical' },
  commonAnnotations: { summary: 'Queue backlog' },
  externalURL: 'http://alertmanager:9093',
  version: '4',
  groupKey: '{}:{alertname="WarehouseQueueBacklog"}',
  truncatedAlerts: 0,
});

test('Alertmanager per fingerprint: one alert each, firing triggers, resolved resolves, labels and annotations kept', (t) => {
  const read = readAlertmanagerWebhook(
    amPayload([amAlert('a1', 'firing'), amAlert('b2', 'resolved', { alertname: 'Other' })]),
    integration('alertmanager', { incident_per: 'fingerprint' }),
  );
  if (!read.ok) return t.fail(JSON.stringify(read.errors));
  t.like(read.value[0], { dedupKey: 'a1', action: 'trigger', title: 'backlog on a1', severity: 'medium' });
  t.like(read.value[1], { dedupKey: 'b2', action: 'resolve' });
  t.deepEqual(read.value[0]!.sender.labels, { alertname: 'WarehouseQueueBacklog', severity: 'warning' });
  t.like(read.value[0]!.sender, {
    client: 'Alertmanager',
    client_url: 'http://alertmanager:9093',
    timestamp: '2026-11-28T10:00:00.123Z',
    links: [{ href: 'http://prometheus:9090/graph?g0.expr=up', text: 'generator' }],
  });
  t.like(read.value[0]!.sender.custom_details as object, {
    annotations: { summary: 'backlog on a1', runbook: 'https://runbooks/q' },
    ends_at: null,
  });
});

test('Alertmanager: a title falls back to the alertname', (t) => {
  const alert = { ...amAlert('c3', 'firing'), annotations: {} };
  const read = readAlertmanagerWebhook(amPayload([alert]), integration('alertmanager', {}));
  t.true(read.ok && read.value[0]!.title === 'WarehouseQueueBacklog');
});

test('Alertmanager per group key: the group is one alert, its status decides, the common labels kept', (t) => {
  const config = { incident_per: 'group_key' };
  const firing = readAlertmanagerWebhook(
    amPayload([amAlert('a1', 'firing'), amAlert('b2', 'resolved')]),
    integration('alertmanager', config),
  );
  if (!firing.ok) return t.fail(JSON.stringify(firing.errors));
  t.is(firing.value.length, 1);
  t.like(firing.value[0], {
    dedupKey: '{}:{alertname="WarehouseQueueBacklog"}',
    action: 'trigger',
    title: 'Queue backlog',
    severity: 'critical',
  });
  t.deepEqual(firing.value[0]!.sender.labels, { alertname: 'WarehouseQueueBacklog', severity: 'critical' });
  const resolved = readAlertmanagerWebhook(
    amPayload([amAlert('a1', 'resolved')], 'resolved'),
    integration('alertmanager', config),
  );
  t.true(resolved.ok && resolved.value[0]!.action === 'resolve');
  const long = { ...amPayload([]), groupKey: `{}:{${'x'.repeat(400)}}` };
  const hashed = readAlertmanagerWebhook(long, integration('alertmanager', config));
  t.true(hashed.ok && /^[0-9a-f]{64}$/.test(hashed.value[0]!.dedupKey), 'a group key over 255 characters is hashed');
});

for (const [name, payload, paths] of [
  ['version 3', { ...amPayload([]), version: '3' }, ['/version']],
  ['no groupKey', { ...amPayload([]), groupKey: undefined }, ['/groupKey']],
  ['an unknown status', amPayload([], 'pending'), ['/status']],
  ['alerts not an array', { ...amPayload([]), alerts: {} }, ['/alerts']],
  [
    'an alert without fingerprint',
    amPayload([{ ...amAlert('x', 'firing'), fingerprint: undefined }]),
    ['/alerts/0/fingerprint'],
  ],
  ['labels not strings', amPayload([{ ...amAlert('x', 'firing'), labels: { a: 1 } }]), ['/alerts/0/labels']],
  [
    'a bad second alert refuses the first too',
    amPayload([amAlert('x', 'firing'), { ...amAlert('y', 'firing'), status: 'odd' }]),
    ['/alerts/1/status'],
  ],
] as const)
  test(`Alertmanager payload refused: ${name}`, (t) => {
    const read = readAlertmanagerWebhook(payload as Record<string, unknown>, integration('alertmanager', {}));
    t.false(read.ok);
    if (!read.ok)
      t.deepEqual(
        read.errors.map((error) => error.path),
        [...paths],
      );
  });

const snsNotification = (alarm: unknown) => ({
  Type: 'Notification',
  MessageId: 'm-1',
  TopicArn: 'arn:aws:sns:eu-west-1:123456789012:redshift-alarms',
  Subject: 'ALARM: "redshift-cpu" in EU (Ireland)',
  Message: typeof alarm === 'string' ? alarm : JSON.stringify(alarm),
  Timestamp: '2026-11-28T10:00:00.000Z',
  SignatureVersion: '2',
  Signature: 'c2ln',
  SigningCertURL: 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-x.pem',
});
const cloudWatch = (
  state: string,
  arn: string | undefined = 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:redshift-cpu',
) => ({
  AlarmName: 'redshift-cpu',
  AlarmDescription: 'CPU over 90 %',
  AWSAccountId: '123456789012',
  NewStateValue: state,
  NewStateReason: 'Threshold Crossed: 1 datapoint [97.0] was greater than the threshold (90.0).',
  StateChangeTime: '2026-11-28T10:00:00.000+0000',
  Region: 'EU (Ireland)',
  AlarmArn: arn,
  OldStateValue: 'OK',
  Trigger: { MetricName: 'CPUUtilization', Namespace: 'AWS/Redshift', Threshold: 90 },
});

for (const [state, arn, expected] of [
  ['ALARM', undefined, { action: 'trigger', dedupKey: 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:redshift-cpu' }],
  ['OK', undefined, { action: 'resolve' }],
  ['ALARM', '', { action: 'trigger', dedupKey: 'redshift-cpu' }],
] as const)
  test(`CloudWatch ${state} ${arn === '' ? '(no ARN: the name is the key)' : ''}`, (t) => {
    const message = readSnsMessage(snsNotification(cloudWatch(state, arn)), 'Notification');
    if (!message.ok) return t.fail(JSON.stringify(message.errors));
    const read = readCloudWatchAlarm(message.value, integration('sns'));
    if (!read.ok || read.value === null) return t.fail(JSON.stringify(read));
    t.like(read.value, expected);
    t.true(read.value.title!.startsWith('redshift-cpu: Threshold Crossed'));
    t.is(read.value.sender.timestamp, '2026-11-28T10:00:00.000Z');
  });

test('CloudWatch INSUFFICIENT_DATA does nothing; a message that is no alarm is refused', (t) => {
  const insufficient = readSnsMessage(snsNotification(cloudWatch('INSUFFICIENT_DATA')), undefined);
  t.true(insufficient.ok && (readCloudWatchAlarm(insufficient.value, integration('sns')) as any).value === null);
  const plain = readSnsMessage(snsNotification('hello'), undefined);
  t.true(plain.ok && !readCloudWatchAlarm(plain.value, integration('sns')).ok);
});

for (const [name, message, header, paths] of [
  ['an unknown Type', { ...snsNotification({}), Type: 'Other' }, undefined, ['/Type']],
  ['a Type other than the header', snsNotification({}), 'SubscriptionConfirmation', ['/Type']],
  ['signature version 3', { ...snsNotification({}), SignatureVersion: '3' }, undefined, ['/SignatureVersion']],
  ['no signature', { ...snsNotification({}), Signature: undefined }, undefined, ['/Signature']],
  [
    'a confirmation without SubscribeURL and Token',
    { ...snsNotification({}), Type: 'SubscriptionConfirmation' },
    undefined,
    ['/SubscribeURL', '/Token'],
  ],
] as const)
  test(`SNS message refused: ${name}`, (t) => {
    const read = readSnsMessage(message as Record<string, unknown>, header);
    t.false(read.ok);
    if (!read.ok)
      t.deepEqual(
        read.errors.map((error) => error.path),
        [...paths],
      );
  });

// Production's trusted SNS addresses (SNS_TRUSTED_URL_PATTERN's default): HTTPS on AWS's SNS hosts only.
const PRODUCTION = new RegExp(DEFAULT_SNS_TRUSTED_URL_PATTERN);
for (const [url, trusted] of [
  ['https://sns.us-east-1.amazonaws.com/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem', true],
  ['https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn&Token=t', true],
  ['https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-x.pem', true],
  ['http://sns.us-east-1.amazonaws.com/SimpleNotificationService-x.pem', false],
  ['https://sns.us-east-1.amazonaws.com.evil.example/x.pem', false],
  ['https://evil.example/?u=https://sns.us-east-1.amazonaws.com/x.pem', false],
  ['https://sns.us-east-1.amazonaws.com@evil.example/x.pem', false],
  ['https://user@sns.us-east-1.amazonaws.com/x.pem', false],
  ['https://sqs.us-east-1.amazonaws.com/x.pem', false],
  ['https://sns.us-east-1.amazonaws.com:8443/x.pem', false],
  ['not a url', false],
] as const)
  test(`SNS address ${trusted ? 'trusted' : 'refused'}: ${url}`, (t) => t.is(trustedSnsUrl(url, PRODUCTION), trusted));

// AWS's string to sign, field by field ("Verifying the signature of an Amazon SNS message").
const signedFields = {
  MessageId: 'id-1',
  TopicArn: 'arn:aws:sns:eu-west-1:123456789012:t',
  Message: 'line one\nline two',
  Timestamp: '2026-11-28T10:00:00.000Z',
  SignatureVersion: '2' as const,
  Signature: 'c2ln',
  SigningCertURL: 'https://sns.eu-west-1.amazonaws.com/x.pem',
};
for (const [name, message, expected] of [
  [
    'a Notification with a Subject',
    { ...signedFields, Type: 'Notification', Subject: 'ALARM' },
    'Message\nline one\nline two\nMessageId\nid-1\nSubject\nALARM\nTimestamp\n2026-11-28T10:00:00.000Z\nTopicArn\narn:aws:sns:eu-west-1:123456789012:t\nType\nNotification\n',
  ],
  [
    'a Notification without one (absent or null)',
    { ...signedFields, Type: 'Notification', Subject: null },
    'Message\nline one\nline two\nMessageId\nid-1\nTimestamp\n2026-11-28T10:00:00.000Z\nTopicArn\narn:aws:sns:eu-west-1:123456789012:t\nType\nNotification\n',
  ],
  [
    'a SubscriptionConfirmation',
    {
      ...signedFields,
      Type: 'SubscriptionConfirmation',
      SubscribeURL: 'https://sns/confirm',
      Token: 'tok',
      Subject: 'x',
    },
    'Message\nline one\nline two\nMessageId\nid-1\nSubscribeURL\nhttps://sns/confirm\nTimestamp\n2026-11-28T10:00:00.000Z\nToken\ntok\nTopicArn\narn:aws:sns:eu-west-1:123456789012:t\nType\nSubscriptionConfirmation\n',
  ],
] as const)
  test(`SNS string to sign: ${name}`, (t) => t.is(snsStringToSign(message as SnsMessage), expected));

/** docs/integrations.md's dbt Cloud configuration, taken from the page, read against dbt Cloud's job webhook payloads. */
const DBT_CLOUD = (() => {
  const page = readFileSync(fileURLToPath(new URL('../docs/integrations.md', import.meta.url)), 'utf8');
  const block = [...page.matchAll(/```json\n([\s\S]*?)```/g)].find((match) => match[1]!.includes('"dbt Cloud jobs"'));
  if (!block) throw new Error('docs/integrations.md has no dbt Cloud integration example');
  return JSON.parse(block[1]!).config as Record<string, unknown>;
})();
const dbtRun = (eventType: string, runStatus: string) => ({
  accountId: 1,
  webhookId: 'wsu_1',
  eventType,
  timestamp: '2026-11-28T02:10:00Z',
  data: { jobId: '4411', jobName: 'Nightly orders', runId: '90210', runStatus, runStatusMessage: '' },
});
for (const [eventType, runStatus, action] of [
  ['job.run.errored', 'Errored', 'trigger'],
  ['job.run.completed', 'Errored', 'trigger'],
  ['job.run.completed', 'Success', 'resolve'],
  ['job.run.completed', 'Cancelled', 'acknowledge'],
] as const)
  test(`the documented dbt Cloud configuration: ${eventType} ${runStatus} → ${action}`, (t) => {
    t.true(integrationBodySchema.safeParse(body('generic', DBT_CLOUD)).success, 'the configuration is taken');
    const read = readGenericJson(dbtRun(eventType, runStatus), integration('generic', DBT_CLOUD));
    if (!read.ok) return t.fail(JSON.stringify(read.errors));
    t.like(read.value, { dedupKey: '4411', action });
    if (action === 'trigger') t.is(read.value.title, 'Nightly orders');
  });

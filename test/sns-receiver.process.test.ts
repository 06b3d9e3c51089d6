/**
 * CloudWatch alarms through Amazon SNS on the real platform (docs/integrations.md): a stand-in for
 * SNS on loopback serves a signing certificate issued by a test CA made here with openssl, and
 * takes subscription confirmations; SNS_TRUSTED_URL_PATTERN points at it (production allows only
 * https://sns.<region>.amazonaws.com). Messages are signed here as SNS signs them (SignatureVersion
 * 1: SHA1, 2: SHA256, over the type's string to sign) and posted as SNS posts them (text/plain,
 * x-amz-sns-message-type). The subscription is confirmed by a GET of its SubscribeURL; ALARM opens
 * an incident that pages once, OK resolves it; the certificate is fetched once; a bad signature, a
 * certificate or subscription address on a foreign host, and a message that is no alarm are 400s
 * that change nothing and fetch nothing from the foreign host; an integration that names its topics
 * takes only theirs.
 */
import test from 'ava';
import { randomUUID, sign } from 'node:crypto';
import { snsStringToSign, type SnsMessage } from '../src/gateways/sns/sns-signature.js';
import { incidentsOf, pagesTo, pagingIntegration } from './support/integration-fixtures.js';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { makeTestCertificate, type TestCertificate } from './support/test-certificate.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const CERT_PATH = '/SimpleNotificationService-0123456789abcdef.pem';
let app: TestApp;
let pages: HttpReceiver;
let sns: HttpReceiver;
let foreign: HttpReceiver;
let certificate: TestCertificate;
let impostor: TestCertificate;

test.before(async () => {
  certificate = makeTestCertificate();
  impostor = makeTestCertificate();
  pages = await startHttpReceiver(() => ({ status: 204 }));
  sns = await startHttpReceiver((request) =>
    request.path === CERT_PATH
      ? { status: 200, headers: { 'content-type': 'application/x-x509-ca-cert' }, body: certificate.certificatePem }
      : request.path.startsWith('/?Action=ConfirmSubscription')
        ? { status: 200, headers: { 'content-type': 'text/xml' }, body: '<ConfirmSubscriptionResponse/>' }
        : { status: 404 },
  );
  // Serves the impostor's certificate: what a forged SigningCertURL would point at.
  foreign = await startHttpReceiver(() => ({ status: 200, body: impostor.certificatePem }));
  app = await startTestApp({
    env: {
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      SNS_TRUSTED_URL_PATTERN: `^http://127\\.0\\.0\\.1:${sns.port}/`,
    },
  });
});
test.after.always(async () => {
  await app?.close();
  for (const receiver of [pages, sns, foreign]) await receiver?.stop();
});

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:redshift-alarms';

function signed(
  fields: Omit<
    SnsMessage,
    'Signature' | 'SigningCertURL' | 'SignatureVersion' | 'MessageId' | 'TopicArn' | 'Timestamp'
  > &
    Partial<SnsMessage>,
  key = certificate.keyPem,
): SnsMessage {
  const message = {
    MessageId: randomUUID(),
    TopicArn: TOPIC,
    Timestamp: new Date().toISOString(),
    SignatureVersion: '2',
    SigningCertURL: `${sns.url}${CERT_PATH}`,
    Signature: '',
    ...fields,
  } as SnsMessage;
  const algorithm = message.SignatureVersion === '1' ? 'sha1' : 'sha256';
  message.Signature = sign(algorithm, Buffer.from(snsStringToSign(message)), key).toString('base64');
  return message;
}

const alarm = (state: string) =>
  JSON.stringify({
    AlarmName: 'redshift-cpu-high',
    AlarmDescription: 'Redshift CPU over 90 %',
    AWSAccountId: '123456789012',
    NewStateValue: state,
    NewStateReason:
      state === 'ALARM' ? 'Threshold Crossed: 1 datapoint [97.2] was greater than the threshold (90.0).' : 'back under',
    StateChangeTime: '2026-11-28T10:00:00.000+0000',
    Region: 'EU (Ireland)',
    AlarmArn: 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:redshift-cpu-high',
    OldStateValue: state === 'ALARM' ? 'OK' : 'ALARM',
    Trigger: { MetricName: 'CPUUtilization', Namespace: 'AWS/Redshift', Statistic: 'AVERAGE', Threshold: 90 },
  });

const deliver = (address: string, message: SnsMessage | Record<string, unknown>) =>
  app.request('POST', address, {
    body: JSON.stringify(message),
    headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': String(message.Type) },
  });

test.serial(
  'the subscription is confirmed; ALARM opens an incident that pages once, OK resolves it; the certificate is fetched once',
  async (t) => {
    const caller = app.newTenant();
    const integration = await pagingIntegration(app, pages, caller, 'sns', {
      kind: 'sns',
      config: { topic_arns: [TOPIC] },
    });
    const address = new URL(integration.events_url).pathname;
    t.is(address, `/integrations/sns/${integration.routing_key}`);

    const subscribeUrl = `${sns.url}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=t0k3n`;
    const confirmation = await deliver(
      address,
      signed({
        Type: 'SubscriptionConfirmation',
        Token: 't0k3n',
        Message: `You have chosen to subscribe to the topic ${TOPIC}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
        SubscribeURL: subscribeUrl,
      }),
    );
    t.is(confirmation.status, 200, JSON.stringify(confirmation.body));
    t.deepEqual(confirmation.body, { status: 'subscription confirmed', topic_arn: TOPIC });
    t.deepEqual(
      sns.requests
        .filter((request) => request.path.startsWith('/?Action'))
        .map((request) => [request.method, request.path]),
      [['GET', subscribeUrl.slice(sns.url.length)]],
    );

    const firing = await deliver(
      address,
      signed({ Type: 'Notification', Subject: 'ALARM: "redshift-cpu-high"', Message: alarm('ALARM') }),
    );
    t.is(firing.status, 202, JSON.stringify(firing.body));
    t.like(firing.body.alerts[0], {
      dedup_key: 'arn:aws:cloudwatch:eu-west-1:123456789012:alarm:redshift-cpu-high',
      action: 'trigger',
      outcome: 'opened',
    });
    // SignatureVersion 1 (SHA1) is still SNS's default: a repeat signed that way counts, pages nobody.
    const again = await deliver(
      address,
      signed({ Type: 'Notification', SignatureVersion: '1', Message: alarm('ALARM') }),
    );
    t.is(again.body.alerts[0].outcome, 'repeated');
    let [incident] = await incidentsOf(app, caller, integration.id);
    t.like(incident, { status: 'triggered', alert_count: 2 });
    t.regex(incident.title, /^redshift-cpu-high: Threshold Crossed/);
    t.like(incident.sender, { client: 'Amazon CloudWatch', class: 'CloudWatch alarm' });
    await waitFor(() => pagesTo(pages, 'sns').length === 1, { timeoutMs: 20_000, message: 'one page' });

    const ok = await deliver(address, signed({ Type: 'Notification', Message: alarm('OK') }));
    t.is(ok.body.alerts[0].outcome, 'resolved');
    [incident] = await incidentsOf(app, caller, integration.id);
    t.like(incident, { status: 'resolved', resolved_by: `integration:${integration.id}` });
    const insufficient = await deliver(address, signed({ Type: 'Notification', Message: alarm('INSUFFICIENT_DATA') }));
    t.deepEqual(insufficient.body, { status: 'accepted', alerts: [] });
    t.is(sns.requests.filter((request) => request.path === CERT_PATH).length, 1, 'the certificate is kept');
    t.is(pagesTo(pages, 'sns').length, 1);

    const unsubscribed = await deliver(
      address,
      signed({ Type: 'UnsubscribeConfirmation', Token: 't', Message: 'unsubscribed', SubscribeURL: subscribeUrl }),
    );
    t.deepEqual(unsubscribed.body, { status: 'unsubscribe noted', topic_arn: TOPIC });
  },
);

test.serial(
  'a bad signature, a foreign certificate or subscription host, and a message that is no alarm are 400s that change nothing',
  async (t) => {
    const caller = app.newTenant();
    const integration = await pagingIntegration(app, pages, caller, 'sns-bad', { kind: 'sns' });
    const address = `/integrations/sns/${integration.routing_key}`;
    const good = signed({ Type: 'Notification', Message: alarm('ALARM') });
    const cases: [string, SnsMessage | Record<string, unknown>, string][] = [
      [
        'signed by another key',
        signed({ Type: 'Notification', Message: alarm('ALARM') }, impostor.keyPem),
        '/Signature',
      ],
      ['the message changed after signing', { ...good, Message: alarm('ALARM').replace('97.2', '12.0') }, '/Signature'],
      ['the signature version changed', { ...good, SignatureVersion: '1' }, '/Signature'],
      [
        'a certificate on a foreign host',
        signed(
          { Type: 'Notification', Message: alarm('ALARM'), SigningCertURL: `${foreign.url}${CERT_PATH}` },
          impostor.keyPem,
        ),
        '/SigningCertURL',
      ],
      [
        'a certificate that is no .pem',
        signed({ Type: 'Notification', Message: alarm('ALARM'), SigningCertURL: `${sns.url}/cert.txt` }),
        '/SigningCertURL',
      ],
      [
        'a subscription on a foreign host',
        signed({
          Type: 'SubscriptionConfirmation',
          Token: 't',
          Message: 'm',
          SubscribeURL: `${foreign.url}/?Action=ConfirmSubscription`,
        }),
        '/SubscribeURL',
      ],
      ['a message that is no alarm', signed({ Type: 'Notification', Message: 'hello' }), '/Message'],
      ['no signature version', { ...good, SignatureVersion: undefined }, '/SignatureVersion'],
    ];
    for (const [name, message, path] of cases) {
      const answer = await deliver(address, message);
      t.is(answer.status, 400, name);
      t.deepEqual(
        answer.body.errors?.map((error: any) => error.path),
        [path],
        name,
      );
    }
    t.is(foreign.requests.length, 0, 'nothing fetched from a foreign host');
    // An integration that names its topics refuses another topic's message, fetching nothing.
    const named = await pagingIntegration(app, pages, caller, 'sns-topics', {
      kind: 'sns',
      config: { topic_arns: ['arn:aws:sns:eu-west-1:123456789012:other-topic'] },
    });
    const fetchedBefore = sns.requests.length;
    const otherTopic = await deliver(`/integrations/sns/${named.routing_key}`, good);
    t.is(otherTopic.status, 400);
    t.deepEqual(
      otherTopic.body.errors.map((error: any) => error.path),
      ['/TopicArn'],
    );
    t.is(sns.requests.length, fetchedBefore);
    t.deepEqual(await incidentsOf(app, caller, named.id), []);
    t.deepEqual(await incidentsOf(app, caller, integration.id), []);
    t.is((await app.request('GET', `/api/v1/integrations/${integration.id}`, { caller })).body.data.events_received, 0);
    // SNS sends text/plain; JSON is taken too, anything else is not.
    const form = await app.request('POST', address, {
      body: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    t.is(form.status, 415);
  },
);

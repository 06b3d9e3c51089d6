/**
 * A second real sender for the Events API v2 address: PagerDuty's own JavaScript client,
 * @pagerduty/pdjs, pointed at us by its `server` option only (the change a team makes). The client
 * speaks only HTTPS, so the test puts a TLS proxy with a certificate made here in front of the
 * platform, and runs the client in its own process trusting that certificate
 * (test/support/pdjs-sender.mjs). Its trigger opens an incident and pages once, its repeat adds to
 * the count, its acknowledge and resolve act as the integration, and its change event is recorded.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { startTestApp, type Caller, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const run = promisify(execFile);
const SENDER = fileURLToPath(new URL('./support/pdjs-sender.mjs', import.meta.url));

let app: TestApp;
let receiver: HttpReceiver;
let proxy: Server;
let certificate: string;
let server: string;

/** A self-signed certificate for 127.0.0.1, made with openssl for this run. */
async function makeCertificate(): Promise<{ key: string; cert: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ww-pdjs-tls-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  certificate = cert;
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

/** TLS in front of the platform: each request is passed on unchanged and its answer passed back. */
function startTlsProxy(tls: { key: string; cert: string }, target: URL): Promise<Server> {
  const tlsServer = createServer(tls, (incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  return new Promise((resolve) => tlsServer.listen(0, '127.0.0.1', () => resolve(tlsServer)));
}

test.before(async () => {
  receiver = await startHttpReceiver(() => ({ status: 204 }));
  app = await startTestApp({ env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' } });
  proxy = await startTlsProxy(await makeCertificate(), new URL(app.url));
  server = `127.0.0.1:${(proxy.address() as { port: number }).port}`;
});
test.after.always(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  await app?.close();
  await receiver?.stop();
});

type SentEvent = { type: 'trigger' | 'acknowledge' | 'resolve' | 'change'; data: Record<string, unknown> };

/** Sends the events in order with @pagerduty/pdjs; answers each event's status and body. */
async function sendWithPdjs(events: SentEvent[]): Promise<{ status: number; body: any }[]> {
  const { stdout } = await run(process.execPath, [SENDER, JSON.stringify({ server, events })], {
    env: { ...process.env, NODE_OPTIONS: '', NODE_EXTRA_CA_CERTS: certificate },
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

async function pagingIntegration(caller: Caller) {
  const channel = await app.request('POST', '/api/v1/notification-channels', {
    caller,
    body: { name: 'pdjs', type: 'webhook', config: { url: `${receiver.url}/pdjs`, method: 'POST', headers: {} } },
  });
  const policy = await app.request('POST', '/api/v1/escalation-policies', {
    caller,
    body: {
      name: 'pdjs policy',
      stages: [{ stage_order: 1, delay_minutes: 0, targets: [{ type: 'channel', id: channel.body.data.id }] }],
    },
  });
  const integration = await app.request('POST', '/api/v1/integrations', {
    caller,
    body: { name: 'pdjs sender', kind: 'events_v2', escalation_policy_id: policy.body.data.id },
  });
  if (integration.status !== 201) throw new Error(JSON.stringify(integration.body));
  return integration.body.data;
}

test.serial(
  '@pagerduty/pdjs, pointed at us by its server option: trigger, repeat, acknowledge, resolve, change',
  async (t) => {
    const caller = app.newTenant();
    const integration = await pagingIntegration(caller);
    const routing_key = integration.routing_key;
    const payload = { summary: 'Nightly load late on analytics', source: 'airflow', severity: 'error' };
    const dedup_key = 'nightly_load-copy_orders';

    const triggered = await sendWithPdjs([
      { type: 'trigger', data: { routing_key, dedup_key, payload } },
      { type: 'trigger', data: { routing_key, dedup_key, payload } },
    ]);
    for (const answer of triggered) {
      t.is(answer.status, 202, JSON.stringify(answer.body));
      t.deepEqual(answer.body, { status: 'success', message: 'Event processed', dedup_key });
    }
    const incidents = async () =>
      (await app.request('GET', `/api/v1/incidents?source=integration:${integration.id}`, { caller })).body
        .data as any[];
    await waitFor(async () => (await incidents())[0]?.alert_count === 2, {
      timeoutMs: 30_000,
      intervalMs: 100,
      message: 'one incident counting both triggers',
    });
    const pages = () =>
      receiver.requests.filter(
        (request) => request.path === '/pdjs' && JSON.parse(request.body).event === 'incident.triggered',
      );
    await waitFor(() => pages().length === 1, { timeoutMs: 30_000, intervalMs: 100, message: 'one page' });

    const followUps = await sendWithPdjs([
      { type: 'acknowledge', data: { routing_key, dedup_key } },
      { type: 'resolve', data: { routing_key, dedup_key } },
      { type: 'change', data: { routing_key, payload: { summary: 'dbt run 4411 deployed', source: 'dbt Cloud' } } },
    ]);
    t.deepEqual(
      followUps.map((answer) => answer.status),
      [202, 202, 202],
      JSON.stringify(followUps),
    );
    await waitFor(async () => (await incidents())[0]?.status === 'resolved', {
      timeoutMs: 30_000,
      intervalMs: 100,
      message: 'resolved by the sender',
    });
    const [incident] = await incidents();
    t.is(incident.acknowledged_by, `integration:${integration.id}`);
    t.is(incident.resolved_by, `integration:${integration.id}`);
    t.is(incident.dedup_key, dedup_key);
    t.is(pages().length, 1, 'the repeat, acknowledge and resolve paged nobody');
    const changes = await app.request('GET', '/api/v1/change-events', { caller });
    t.true(
      (changes.body.data as any[]).some((change) => change.summary === 'dbt run 4411 deployed'),
      JSON.stringify(changes.body),
    );
  },
);

/**
 * A second real sender for the Events API v2 address: PagerDuty's own JavaScript client,
 * @pagerduty/pdjs, pointed at us by its `server` option only (the change a team makes). The client
 * speaks only HTTPS, so the test puts a TLS proxy with a certificate made here in front of the
 * platform, and runs the client in its own process trusting the test CA that issued it
 * (test/support/pdjs-sender.mjs). Its trigger opens an incident and pages once, its repeat adds to
 * the count, its acknowledge and resolve act as the integration, and its change event is recorded.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startHttpReceiver, type HttpReceiver } from './support/notify-receivers/http-receiver.js';
import { incidentsOf, pagesTo, pagingIntegration } from './support/integration-fixtures.js';
import { makeTestCertificate } from './support/test-certificate.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const run = promisify(execFile);
const SENDER = fileURLToPath(new URL('./support/pdjs-sender.mjs', import.meta.url));

let app: TestApp;
let receiver: HttpReceiver;
let proxy: Server;
let certificate: string;
let server: string;

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
  const tls = makeTestCertificate('127.0.0.1', 'IP:127.0.0.1');
  certificate = join(mkdtempSync(join(tmpdir(), 'ww-pdjs-ca-')), 'ca.pem');
  writeFileSync(certificate, tls.caPem);
  proxy = await startTlsProxy({ key: tls.keyPem, cert: tls.certificatePem }, new URL(app.url));
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

test.serial(
  '@pagerduty/pdjs, pointed at us by its server option: trigger, repeat, acknowledge, resolve, change',
  async (t) => {
    const caller = app.newTenant();
    const integration = await pagingIntegration(app, receiver, caller, 'pdjs', { kind: 'events_v2' });
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
    const incidents = () => incidentsOf(app, caller, integration.id);
    await waitFor(async () => (await incidents())[0]?.alert_count === 2, {
      timeoutMs: 30_000,
      intervalMs: 100,
      message: 'one incident counting both triggers',
    });
    const pages = () => pagesTo(receiver, 'pdjs');
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

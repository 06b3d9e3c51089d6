import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emailAdapter } from '../src/gateways/notify/email-adapter.js';
import type { EmailTarget } from '../src/gateways/notify/port.js';
import { alertMessage } from './support/notify-receivers/alert-fixture.js';
import { startSmtpReceiver, type SmtpReceiver } from './support/notify-receivers/smtp-receiver.js';
import { virtualTime } from './support/notify-receivers/virtual-time.js';

const FROM = 'warehouse-watch <alerts@watch.example.com>';
const channel = (overrides: Partial<EmailTarget['config']> = {}): EmailTarget => ({
  medium: 'email',
  channelId: 'e0000000-0000-4000-8000-000000000001',
  config: {
    recipients: ['oncall@example.com', 'dba-team@example.com'],
    subject_template:
      '{{severity}} | {{ rule_name }} | {{metric}}={{current_value}} (>{{threshold}}) {{status}} #{{incident_id}}',
    ...overrides,
  },
});

async function smtp(t: { teardown: (fn: () => unknown) => void }): Promise<SmtpReceiver> {
  const receiver = await startSmtpReceiver();
  t.teardown(() => receiver.stop());
  return receiver;
}

/** A header's value, unfolded (long headers continue on lines starting with white space). */
/** The body, decoded from quoted-printable (how nodemailer sends long lines). */
const bodyText = (raw: string) =>
  Buffer.from(
    raw
      .slice(raw.indexOf('\r\n\r\n') + 4)
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

const header = (raw: string, name: string) =>
  new RegExp(`^${name}: (.+)$`, 'mi').exec(raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n(?=[ \t])/g, ''))?.[1];

test('over SMTP: one message to every recipient, subject from the template, authenticated', async (t) => {
  const receiver = await smtp(t);
  const adapter = emailAdapter({
    from: FROM,
    smtpUrl: receiver.url,
    outboxDirectory: '/nonexistent',
    ...virtualTime(),
  });
  const outcome = await adapter.deliver(channel(), alertMessage(), 'incident-1:stage-1:email');
  t.like(outcome, {
    ok: true,
    medium: 'email',
    target: 'channel:e0000000-0000-4000-8000-000000000001',
    status_code: 250,
    attempts: 1,
  });
  t.is(receiver.mails.length, 1);
  const [mail] = receiver.mails;
  t.is(mail!.from, 'alerts@watch.example.com');
  t.deepEqual(mail!.to, ['oncall@example.com', 'dba-team@example.com']);
  t.is(
    header(mail!.raw, 'Subject'),
    'critical | Disk usage high | disk_used_percent=93.5 (>90) triggered #7d0c1a52-3f7b-4c1e-9a43-0b6f1f0e2a11',
  );
  t.is(header(mail!.raw, 'X-Warehouse-Watch-Incident'), alertMessage().incidentId);
  t.true(bodyText(mail!.raw).includes(`Open the incident: ${alertMessage().incidentUrl}`));
  t.true(bodyText(mail!.raw).includes('Value:     93.5 > 90'));
});

test('a transient refusal (451) is retried as the same message; a permanent one (550) is final', async (t) => {
  const receiver = await smtp(t);
  const time = virtualTime();
  const adapter = emailAdapter({ from: FROM, smtpUrl: receiver.url, outboxDirectory: '/nonexistent', ...time });
  receiver.refuseRecipients(451, 1);
  const first = await adapter.deliver(channel(), alertMessage(), 'key-a');
  t.like(first, { ok: true, attempts: 2 });
  t.deepEqual(time.sleeps, [250]);
  const again = await adapter.deliver(channel(), alertMessage(), 'key-a');
  t.is(
    header(receiver.mails[0]!.raw, 'Message-ID'),
    header(receiver.mails[1]!.raw, 'Message-ID'),
    'one delivery, one Message-ID, however often it is sent',
  );
  t.true(again.ok);

  receiver.refuseRecipients(550, 1);
  const refused = await adapter.deliver(channel(), alertMessage(), 'key-b');
  t.like(refused, {
    ok: false,
    status_code: 550,
    attempts: 1,
    error: { kind: 'smtp', message: `smtp://127.0.0.1:${receiver.port}: the mail server answered 550` },
  });
  t.false(JSON.stringify(refused).includes(receiver.password));
  t.is(receiver.mails.length, 2);
});

test('wrong credentials are reported without them', async (t) => {
  const receiver = await smtp(t);
  const url = `smtp://alerts:not-the-password@127.0.0.1:${receiver.port}`;
  const outcome = await emailAdapter({
    from: FROM,
    smtpUrl: url,
    outboxDirectory: '/nonexistent',
    ...virtualTime(),
  }).deliver(channel(), alertMessage(), 'k');
  t.like(outcome, { ok: false, status_code: 535, attempts: 1, error: { kind: 'smtp' } });
  t.false(JSON.stringify(outcome).includes('not-the-password'));
});

test('an unreachable mail server is a network error after the retries', async (t) => {
  const receiver = await smtp(t);
  await receiver.stop();
  const time = virtualTime();
  const outcome = await emailAdapter({
    from: FROM,
    smtpUrl: receiver.url,
    outboxDirectory: '/nonexistent',
    ...time,
  }).deliver(channel(), alertMessage(), 'k');
  t.like(outcome, { ok: false, attempts: 3, error: { kind: 'network' } });
  t.false(JSON.stringify(outcome).includes(receiver.password));
});

test('without SMTP: an .eml per delivery in the outbox; a retried delivery replaces its file', async (t) => {
  const directory = join(mkdtempSync(join(tmpdir(), 'notify-email-')), 'outbox');
  const adapter = emailAdapter({ from: FROM, outboxDirectory: directory, ...virtualTime() });
  const outcome = await adapter.deliver(
    { medium: 'email', config: { recipients: ['grace@example.com'] } },
    alertMessage(),
    'incident-1:stage-1:user-1',
  );
  t.like(outcome, { ok: true, medium: 'email', target: 'g***@example.com', attempts: 1 });
  t.deepEqual(readdirSync(directory), [outcome.outbox_file]);
  const raw = readFileSync(join(directory, outcome.outbox_file!), 'utf8');
  t.is(header(raw, 'To'), 'grace@example.com');
  t.is(
    header(raw, 'Subject'),
    '[critical] triggered: Disk usage high (disk_used_percent 93.5, threshold 90)',
    'the default subject',
  );
  t.is(header(raw, 'Date'), 'Sun, 01 Mar 2026 12:00:00 +0000');
  await adapter.deliver(
    { medium: 'email', config: { recipients: ['grace@example.com'] } },
    alertMessage(),
    'incident-1:stage-1:user-1',
  );
  t.is(readdirSync(directory).length, 1);
});

test('an outbox that cannot be written is an outbox error without server paths', async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'notify-email-'));
  const blocked = join(parent, 'not-a-directory');
  writeFileSync(blocked, 'x');
  const outcome = await emailAdapter({ from: FROM, outboxDirectory: blocked }).deliver(channel(), alertMessage(), 'k');
  t.like(outcome, { ok: false, error: { kind: 'outbox' } });
  t.false(outcome.error!.message.includes(parent));
});

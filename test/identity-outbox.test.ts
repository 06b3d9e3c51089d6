import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outboxInvitations, outboxMailer } from '../src/gateways/identity/outbox-mailer.js';
import { IdentityProviderError } from '../src/gateways/identity/port.js';

const invitee = {
  tenantId: '00000000-0000-4000-8000-000000000001',
  userId: '00000000-0000-4000-8000-000000000002',
  email: 'grace@example.com',
  name: 'Grace Hopper',
};

test('an invitation is one RFC 5322 message in the outbox, with the sign-in address', async (t) => {
  const directory = join(mkdtempSync(join(tmpdir(), 'outbox-')), 'outbox');
  const now = new Date('2026-03-01T12:00:00.000Z');
  const provider = outboxInvitations({
    mailer: outboxMailer({ directory, from: 'warehouse-watch <no-reply@platform.test>', now: () => now }),
    signInUrl: 'http://platform.test',
  });
  const receipt = await provider.invite(invitee);
  t.is(provider.name, 'outbox');
  t.deepEqual(readdirSync(directory), [receipt.reference], 'one file, no temporary left behind');
  t.regex(receipt.reference, /\.eml$/);
  const message = readFileSync(join(directory, receipt.reference), 'utf8');
  const blankLine = message.indexOf('\r\n\r\n');
  const head = message.slice(0, blankLine);
  const body = message.slice(blankLine + 4);
  t.false(/[^\r]\n/.test(head), 'header lines end in CRLF');
  const header = (name: string) => new RegExp(`^${name}: (.+)$`, 'mi').exec(head)?.[1];
  t.is(header('From'), '"warehouse-watch" <no-reply@platform.test>');
  t.is(header('To'), 'Grace Hopper <grace@example.com>');
  t.is(header('Subject'), 'You have been invited to warehouse-watch');
  t.is(header('Date'), 'Sun, 01 Mar 2026 12:00:00 +0000');
  t.regex(header('Message-ID') ?? '', /^<.+@.+>$/);
  t.is(header('MIME-Version'), '1.0');
  t.true(body.includes('http://platform.test'));
  t.true(body.includes('Hello Grace Hopper'));
});

test('an outbox that cannot be written is an IdentityProviderError without server paths', async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'outbox-'));
  const blocked = join(parent, 'not-a-directory');
  writeFileSync(blocked, 'a file where the outbox should be');
  const mailer = outboxMailer({ directory: blocked, from: 'x <x@platform.test>' });
  const error = await t.throwsAsync(
    mailer.send({ to: { name: 'A', address: 'a@example.com' }, subject: 's', text: 't' }),
    { instanceOf: IdentityProviderError },
  );
  t.is(error!.step, 'send');
  t.false(error!.message.includes(parent));
  t.regex(error!.message, /outbox \(E[A-Z]+\)/);
});

/**
 * DATA_DIR/outbox holds invitation tickets and alert texts, and a mail relay sends whatever lies in
 * it: the directory is owner-only and each file 0600, whatever the umask, also when DATA_DIR itself
 * is the operator's directory with its own (wider) mode.
 */
import test from 'ava';
import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outboxMailer } from '../src/gateways/identity/outbox-mailer.js';
import { writeOutboxFile } from '../src/gateways/notify/outbox-file.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

// The permissive umask of many containers: the modes must not depend on it.
test.before(() => process.umask(0));

/** A DATA_DIR the operator made world-readable (`/var/lib/x`, `.`): not ours to change. */
function operatorDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ww-outbox-'));
  chmodSync(dir, 0o755);
  return dir;
}

test('a delivery creates the outbox 0700 and its file 0600', async (t) => {
  const outbox = join(operatorDataDir(), 'outbox');
  await writeOutboxFile(outbox, 'email-1.eml', 'Subject: disk full\r\n\r\nbody');
  t.is(modeOf(outbox), '700');
  t.deepEqual(readdirSync(outbox), ['email-1.eml']);
  t.is(modeOf(join(outbox, 'email-1.eml')), '600');
});

test('an invitation creates the outbox 0700 and its message 0600', async (t) => {
  const outbox = join(operatorDataDir(), 'outbox');
  const { location } = await outboxMailer({ directory: outbox, from: 'x <x@platform.test>' }).send({
    to: { name: 'Ada', address: 'ada@example.test' },
    subject: 'Welcome',
    text: 'your ticket',
  });
  t.is(modeOf(outbox), '700');
  t.is(modeOf(join(outbox, location)), '600');
});

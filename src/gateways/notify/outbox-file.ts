/**
 * The embedded delivery of email and sms: one file per delivery in the outbox directory, where an
 * operator or a relay picks it up. Written under a temporary name and renamed, so a reader never
 * sees half a file; named after the delivery's idempotency key, so a retried delivery replaces its
 * file instead of adding a second one.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const outboxFileName = (medium: string, idempotencyKey: string, extension: string) =>
  `${medium}-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}.${extension}`;

/** Owner-only: the outbox holds invitation tickets and alert texts, and a relay sends whatever lies in it. */
export const OUTBOX_DIRECTORY_MODE = 0o700;

export async function writeOutboxFile(directory: string, name: string, content: string | Buffer): Promise<void> {
  await mkdir(directory, { recursive: true, mode: OUTBOX_DIRECTORY_MODE });
  const temporary = join(directory, `.${name}.${randomUUID()}.tmp`);
  await writeFile(temporary, content, { mode: 0o600 });
  await rename(temporary, join(directory, name));
}

/** The error code only: file system messages carry server paths. */
export const outboxErrorMessage = (error: unknown) =>
  `the message could not be written to the outbox (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`;

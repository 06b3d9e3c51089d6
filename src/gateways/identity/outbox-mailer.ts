/**
 * The embedded identity adapter: invitations become RFC 5322 messages (.eml files, composed by
 * nodemailer's stream transport) in DATA_DIR/outbox, where an operator or a mail relay picks them
 * up. Each file is written under a temporary name and renamed, so a reader never sees half a message.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { OUTBOX_DIRECTORY_MODE } from '../notify/outbox-file.js';
import { invitationEmail } from './invitation-email.js';
import { IdentityProviderError, type IdentityProvider, type InvitationMailer, type OutgoingEmail } from './port.js';

export function outboxMailer(options: { directory: string; from: string; now?: () => Date }): InvitationMailer {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const now = options.now ?? (() => new Date());
  return {
    async send(email: OutgoingEmail) {
      try {
        const info = await composer.sendMail({
          from: options.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          date: now(),
        });
        const message = (info as unknown as { message: Buffer }).message;
        await mkdir(options.directory, { recursive: true, mode: OUTBOX_DIRECTORY_MODE });
        const name = `${now().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
        const temporary = join(options.directory, `.${name}.tmp`);
        await writeFile(temporary, message, { mode: 0o600 });
        await rename(temporary, join(options.directory, name));
        return { messageId: info.messageId, location: name };
      } catch (error) {
        // The error code only: file system messages carry server paths.
        const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
        throw new IdentityProviderError(`the invitation could not be written to the outbox (${code})`, 'send');
      }
    },
  };
}

/** Embedded default: no external provider, so inviting is telling the invitee where to sign in. */
export function outboxInvitations(options: { mailer: InvitationMailer; signInUrl: string }): IdentityProvider {
  return {
    name: 'outbox',
    async invite(invitee) {
      const sent = await options.mailer.send(invitationEmail(invitee, { url: options.signInUrl, kind: 'sign-in' }));
      return { reference: sent.location };
    },
  };
}

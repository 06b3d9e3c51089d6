/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 for the email adapter: it requires
 * AUTH with the test's credentials, records every message with its envelope, and can refuse
 * recipients with a chosen reply code (451 is transient, 550 permanent).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpReceiver {
  url: string;
  port: number;
  user: string;
  password: string;
  mails: ReceivedMail[];
  /** Every RCPT TO refused with `code` for the next `times` transactions. */
  refuseRecipients(code: number, times: number): void;
  stop(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const user = 'alerts';
  const password = 'smtp-password-1';
  const mails: ReceivedMail[] = [];
  const refusals: number[] = [];
  /** The refusal code of the transaction a session is in (a transaction starts with MAIL FROM). */
  const refusing = new Map<string, number>();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onMailFrom(_address, session, callback) {
      const code = refusals.shift();
      if (code === undefined) refusing.delete(session.id);
      else refusing.set(session.id, code);
      callback();
    },
    onRcptTo(_address, session, callback) {
      const code = refusing.get(session.id);
      if (code !== undefined)
        callback(
          Object.assign(new Error(code < 500 ? 'Try again later' : 'No such user here'), { responseCode: code }),
        );
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback(null, 'Queued as test');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${user}:${password}@127.0.0.1:${port}`,
    port,
    user,
    password,
    mails,
    refuseRecipients: (code, times) => void refusals.push(...new Array<number>(times).fill(code)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

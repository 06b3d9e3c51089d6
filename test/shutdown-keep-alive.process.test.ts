/**
 * After SIGTERM, a request sent on a kept-alive connection gets an HTTP answer, never a reset
 * (issue 39 §8: 26 POSTs sent on open keep-alive connections after SIGTERM were reset with no
 * answer). While the server drains, such a request is answered (503 problem+json with
 * `Connection: close` and Retry-After, or finished as usual), and the server closes the connection
 * only after an answer that said `Connection: close`.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devToken, freePort, startPlatformProcess } from './support/platform-process.js';

const CONNECTIONS = 8;
/** Requests per connection at most: the drain must close each connection long before this. */
const MAX_REQUESTS = 5_000;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One kept-alive connection read as a sequence of answers; `null` when the server closed or reset it instead. */
function keptAliveConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let buffer = Buffer.alloc(0);
  let ended: string | undefined;
  let wake: (() => void) | undefined;
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake?.();
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    ended ??= error.code ?? error.message;
    wake?.();
  });
  socket.on('close', () => {
    ended ??= 'closed';
    wake?.();
  });
  const connected = new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));

  /** The next whole answer in the buffer, if one has arrived (Content-Length or chunked bodies). */
  function takeAnswer(): Answer | undefined {
    const headEnd = buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const [statusLine, ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const bodyStart = headEnd + 4;
    let bodyEnd: number;
    if (headers['transfer-encoding'] === 'chunked') {
      const last = buffer.indexOf('\r\n0\r\n\r\n', bodyStart - 2);
      if (last < 0) return undefined;
      bodyEnd = last + 7;
    } else {
      bodyEnd = bodyStart + Number(headers['content-length'] ?? 0);
      if (buffer.length < bodyEnd) return undefined;
    }
    const body = buffer.subarray(bodyStart, bodyEnd).toString('utf8');
    buffer = buffer.subarray(bodyEnd);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }

  return {
    connected,
    /** Sends one request and waits for its answer; null with the reason when the connection ended first. */
    async request(head: string, body = ''): Promise<Answer | { unanswered: string }> {
      socket.write(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      for (;;) {
        const answer = takeAnswer();
        if (answer) return answer;
        if (ended) return { unanswered: ended };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    /** Resolves with how the connection ended once the server has closed it. */
    async closedByServer(): Promise<string> {
      while (!ended) await new Promise<void>((resolve) => (wake = resolve));
      return ended;
    },
    destroy: () => socket.destroy(),
  };
}

test('after SIGTERM every request on a kept-alive connection is answered until the server closes it after an answer', async (t) => {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ww-drain-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const platform = await startPlatformProcess({ DATA_DIR: dataDir, PORT: String(port), BASE_URL: baseUrl });
  const token = await devToken(baseUrl, dataDir);
  let created = 0;
  const post = (n: number) => [
    [
      'POST /api/v1/notification-channels HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      `Authorization: Bearer ${token}`,
      'Content-Type: application/json',
      'Connection: keep-alive',
    ].join('\r\n'),
    JSON.stringify({
      name: `drain ${n}`,
      type: 'email',
      config: { recipients: ['oncall@example.com'], subject_template: 's' },
    }),
  ];

  const connections = Array.from({ length: CONNECTIONS }, () => keptAliveConnection(port));
  await Promise.all(connections.map((c) => c.connected));
  // Each connection has served one request and is now kept alive, idle.
  for (const connection of connections) {
    const first = await connection.request(...(post(created++) as [string, string]));
    t.is('status' in first ? first.status : first.unanswered, 201);
  }

  platform.child.kill('SIGTERM');
  const outcomes = await Promise.all(
    connections.map(async (connection) => {
      const statuses: number[] = [];
      for (let sent = 0; sent < MAX_REQUESTS; sent++) {
        const answer = await connection.request(...(post(created++) as [string, string]));
        if ('unanswered' in answer) return { statuses, unanswered: answer.unanswered };
        statuses.push(answer.status);
        if (answer.headers.connection?.toLowerCase() === 'close') {
          if (answer.status === 503) {
            t.regex(answer.headers['content-type'] ?? '', /^application\/problem\+json/);
            t.truthy(answer.headers['retry-after'], 'a 503 while draining says when to come back');
            t.is(JSON.parse(answer.body).status, 503);
          }
          return { statuses, closedAfterAnswer: await connection.closedByServer() };
        }
      }
      connection.destroy();
      return { statuses, neverClosed: true };
    }),
  );
  t.is(await platform.exited, 0, platform.output());
  for (const outcome of outcomes) {
    t.is(
      outcome.unanswered,
      undefined,
      `a request was ${outcome.unanswered} with no answer: ${JSON.stringify(outcome)}`,
    );
    t.is(outcome.neverClosed, undefined);
    t.truthy(outcome.closedAfterAnswer);
    t.true(
      outcome.statuses.every((status) => status === 201 || status === 503),
      `only finished requests (201) or drain answers (503): ${outcome.statuses.join(',')}`,
    );
  }
});

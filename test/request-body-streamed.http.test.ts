/**
 * Bodies sent without a Content-Length (chunked) are read from the stream as they arrive: a small
 * one in several chunks is one JSON text, one that passes 1 MiB is a 413 problem answer before it
 * has all arrived, and the platform keeps serving afterwards.
 */
import test from 'ava';
import { request } from 'node:http';
import { startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(async () => app?.close());

/** POSTs `chunks` with Transfer-Encoding: chunked; resolves with the answer once it has come. */
function postChunked(path: string, token: string, chunks: (string | Buffer)[]) {
  const url = new URL(path, app.url);
  return new Promise<{ status: number; contentType: string | undefined; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        let body = '';
        res
          .on('data', (chunk) => (body += chunk))
          .on('end', () => resolve({ status: res.statusCode!, contentType: res.headers['content-type'], body }));
      },
    );
    // The server may answer (and close) before every chunk is written: that is the point of a 413.
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

test('a JSON body in several chunks without a Content-Length creates the channel', async (t) => {
  const caller = app.newTenant();
  const text = JSON.stringify({
    name: 'chunked',
    type: 'email',
    config: { recipients: ['a@example.com'], subject_template: 's' },
  });
  const answer = await postChunked('/api/v1/notification-channels', app.token(caller), [
    text.slice(0, 7),
    text.slice(7, 30),
    text.slice(30),
  ]);
  t.is(answer.status, 201, answer.body);
  t.is(JSON.parse(answer.body).data.name, 'chunked');
});

test('a chunked body past 1 MiB is a 413 problem answer, and the platform goes on serving', async (t) => {
  const caller = app.newTenant();
  const megabyte = Buffer.alloc(256 * 1024, 'x');
  const answer = await postChunked('/api/v1/notification-channels', app.token(caller), [
    '{"name":"',
    megabyte,
    megabyte,
    megabyte,
    megabyte,
    megabyte,
    '"}',
  ]);
  t.is(answer.status, 413);
  t.is(answer.contentType, 'application/problem+json');
  const list = await app.request('GET', '/api/v1/notification-channels', { caller });
  t.is(list.status, 200);
  t.deepEqual(list.body.data, []);
});

/**
 * Server-sent events over Koa: a PassThrough body, no buffering, a heartbeat comment so proxies
 * keep the connection, and cleanup when the client goes away (no leaked timers or listeners).
 */
import type { Context } from 'koa';
import { PassThrough } from 'node:stream';

export interface SseEvent {
  id?: string;
  event?: string;
  data: unknown;
}

export interface SseChannel {
  send(event: SseEvent): void;
  /**
   * Sends a frame made by `encodeSseFrame`: a feed that sends one event to many streams encodes it
   * once, not once per stream.
   */
  sendFrame(frame: string): void;
  comment(text: string): void;
  onClose(cleanup: () => void): void;
  /** Ends the response (the client reconnects with Last-Event-ID). */
  close(): void;
  readonly closed: boolean;
}

const MAX_UNREAD_BYTES = 1024 * 1024;

/** One event as its server-sent-events frame, the blank line that ends it included. */
export function encodeSseFrame({ id, event, data }: SseEvent): string {
  let frame = '';
  if (id !== undefined) frame += `id: ${id}\n`;
  if (event !== undefined) frame += `event: ${event}\n`;
  for (const line of JSON.stringify(data).split('\n')) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

export function openSse(ctx: Context, options: { heartbeatMs: number }): SseChannel {
  const stream = new PassThrough();
  const cleanups: (() => void)[] = [];
  let closed = false;
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.req.socket.setKeepAlive(true);
  ctx.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  ctx.status = 200;
  ctx.body = stream;

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const cleanup of cleanups.splice(0)) cleanup();
    stream.end();
  };
  const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), options.heartbeatMs);
  ctx.req.on('close', close);
  ctx.res.on('close', close);
  stream.on('error', close);
  stream.write('retry: 3000\n\n');

  const sendFrame = (frame: string) => {
    if (closed) return;
    // A client that stays connected but stops reading is cut off rather than buffered forever;
    // it reconnects with Last-Event-ID and loses nothing.
    if (stream.writableLength > MAX_UNREAD_BYTES) {
      close();
      return;
    }
    stream.write(frame);
  };

  return {
    send: (event) => {
      if (!closed) sendFrame(encodeSseFrame(event));
    },
    sendFrame,
    comment(text) {
      if (!closed) stream.write(`: ${text}\n\n`);
    },
    close,
    onClose(cleanup) {
      if (closed) cleanup();
      else cleanups.push(cleanup);
    },
    get closed() {
      return closed;
    },
  };
}

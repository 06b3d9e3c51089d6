/**
 * A Slack-compatible incoming-webhook stand-in: the URL's path is the credential
 * (/services/T…/B…/<secret>); a wrong path is 404 "no_service", a body without `text` or with
 * malformed `blocks` is 400 "invalid_payload", a good one is 200 "ok" (what Slack answers).
 */
import { randomBytes } from 'node:crypto';
import { startHttpReceiver, type HttpReceiver } from './http-receiver.js';

export interface ChatReceiver extends HttpReceiver {
  /** The full incoming-webhook URL, secret included. */
  webhookUrl: string;
  secret: string;
  /** Accepted messages, parsed. */
  messages: Array<{ channel?: string; text: string; blocks: Array<Record<string, unknown>> }>;
}

export async function startChatReceiver(): Promise<ChatReceiver> {
  const secret = randomBytes(12).toString('hex');
  const path = `/services/T0001/B0001/${secret}`;
  const messages: ChatReceiver['messages'] = [];
  const receiver = await startHttpReceiver((request) => {
    if (request.method !== 'POST' || request.path !== path) return { status: 404, body: 'no_service' };
    let body: ChatReceiver['messages'][number];
    try {
      body = JSON.parse(request.body) as typeof body;
    } catch {
      return { status: 400, body: 'invalid_payload' };
    }
    const blocksValid = Array.isArray(body.blocks) && body.blocks.length <= 50 && body.blocks.every((block) => typeof block.type === 'string');
    if (typeof body.text !== 'string' || body.text === '' || !blocksValid) return { status: 400, body: 'invalid_payload' };
    messages.push(body);
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
  });
  return Object.assign(receiver, { webhookUrl: `${receiver.url}${path}`, secret, messages });
}

/** The minimal SMS provider API (sms-adapter.ts): bearer token, JSON {to, body}, 202 with an id. */
import { json, startHttpReceiver, type HttpReceiver } from './http-receiver.js';

export interface SmsProviderStandIn extends HttpReceiver {
  token: string;
  messages: Array<{ to: string; body: string }>;
}

export async function startSmsProviderStandIn(token = 'sms-provider-token-1'): Promise<SmsProviderStandIn> {
  const messages: SmsProviderStandIn['messages'] = [];
  const receiver = await startHttpReceiver((request) => {
    if (request.headers.authorization !== `Bearer ${token}`) return json(401, { error: 'unauthorized' });
    const message = JSON.parse(request.body) as { to?: unknown; body?: unknown };
    if (typeof message.to !== 'string' || !/^\+[1-9]\d{6,14}$/.test(message.to) || typeof message.body !== 'string')
      return json(400, { error: 'invalid message' });
    messages.push({ to: message.to, body: message.body });
    return json(202, { id: `sms-${messages.length}` });
  });
  return Object.assign(receiver, { token, messages });
}

/** Chat: the message POSTed to the channel's incoming-webhook URL through the guarded client. */
import type { GuardedHttpClient } from '../http/guarded-client.js';
import { chatMessage } from './chat-message.js';
import { fromHttpOutcome } from './delivery-outcome.js';
import type { ChatTarget, MediumAdapter } from './port.js';

export function chatAdapter(client: GuardedHttpClient): MediumAdapter<ChatTarget> {
  return {
    medium: 'chat',
    async deliver(target, message, idempotencyKey) {
      const outcome = await client.send({
        method: 'POST',
        url: target.config.webhook_url,
        body: JSON.stringify(chatMessage(message)),
        idempotencyKey,
      });
      return fromHttpOutcome(target, outcome);
    },
  };
}

/**
 * Pager: an Events API v2 event POSTed to the events URL (PAGER_EVENTS_URL; PagerDuty's by default)
 * through the guarded client. The API answers 202 when it has queued the event; 400 for an event it
 * will never take (not retried), 429 when the integration is rate limited (retried).
 */
import type { GuardedHttpClient } from '../http/guarded-client.js';
import { fromHttpOutcome } from './delivery-outcome.js';
import { DEFAULT_PAGER_EVENTS_URL, pagerEvent } from './pager-event.js';
import type { MediumAdapter, PagerTarget } from './port.js';

export function pagerAdapter(
  client: GuardedHttpClient,
  options: { eventsUrl?: string } = {},
): MediumAdapter<PagerTarget> {
  const eventsUrl = options.eventsUrl ?? DEFAULT_PAGER_EVENTS_URL;
  return {
    medium: 'pager',
    async deliver(target, message, idempotencyKey) {
      const outcome = await client.send({
        method: 'POST',
        url: eventsUrl,
        body: JSON.stringify(pagerEvent(message, target.config)),
        idempotencyKey,
      });
      return fromHttpOutcome(target, outcome);
    },
  };
}

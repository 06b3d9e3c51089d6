/** Turning what a transport reported into the port's DeliveryOutcome. Pure. */
import type { HttpOutcome } from '../http/outbound-outcome.js';
import { describeTarget } from './target-description.js';
import type { DeliveryErrorKind, DeliveryOutcome, NotifyTarget } from './port.js';

export function fromHttpOutcome(target: NotifyTarget, outcome: HttpOutcome): DeliveryOutcome {
  return {
    ok: outcome.ok,
    medium: target.medium,
    target: describeTarget(target),
    ...(outcome.status_code !== undefined ? { status_code: outcome.status_code } : {}),
    latency_ms: outcome.latency_ms,
    ...(outcome.response_excerpt !== undefined ? { response_excerpt: outcome.response_excerpt } : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
    attempts: outcome.attempts,
  };
}

/** A delivery that could not start, e.g. a phone number that is not E.164. */
export function notAttempted(target: NotifyTarget, kind: DeliveryErrorKind, message: string): DeliveryOutcome {
  return {
    ok: false,
    medium: target.medium,
    target: describeTarget(target),
    latency_ms: 0,
    error: { kind, message },
    attempts: 0,
  };
}

/**
 * The limits PagerDuty documents for its Events API v2 (docs/integrations.md names the pages), which
 * `POST /v2/enqueue` enforces as PagerDuty does, so a sender that works against one works against
 * the other.
 */
export const INBOUND_LIMITS = {
  /** `payload.summary`: "The maximum permitted length of this property is 1024 characters." */
  maxSummaryChars: 1024,
  /** `dedup_key`: "The maximum permitted length of this property is 255 characters." */
  maxDedupKeyChars: 255,
  /** "Events API payloads are limited to 512 KB." */
  maxPayloadBytes: 512 * 1024,
  /** `routing_key`: "the 32 character Integration Key". */
  routingKeyChars: 32,
  /** "approximately 120 calls/minute per integration key" (the default of EVENTS_PER_KEY_PER_MINUTE). */
  eventsPerKeyPerMinute: 120,
} as const;

/**
 * Alerts from outside, the model every receiver shares. A receiver (Events API v2 today;
 * Alertmanager, SNS and generic JSON use the same) turns its payload into one NormalizedAlert and
 * hands it to the one decider (commands/inbound-alerts.ts): what the sender said, in our words.
 *
 *   `integrationInbox-<integrationId>`: one event per accepted event of the integration, appended
 *     without reading (a sender repeating a trigger every minute never contends with anything):
 *     IntegrationAlertReceived says what the alert did (opened, repeated on, acknowledged or
 *     resolved an incident, or nothing), IntegrationChangeReceived records a change event.
 *
 * An integration's incidents have the subject `integration:<id>:<dedup key>`, so the n-th incident
 * of one key has a fixed id (incidentIdFor) and two instances opening it agree.
 */
import { z } from 'zod';
import { INBOUND_LIMITS } from '../contract/inbound-limits.js';
import { ALERT_OUTCOMES, INBOUND_ACTIONS } from '../contract/receivers.js';
import { severitySchema } from './vocabulary.js';

export { INBOUND_LIMITS };

export { ALERT_OUTCOMES, INBOUND_ACTIONS };
export type InboundAction = (typeof INBOUND_ACTIONS)[number];

const linkSchema = z.object({ href: z.string(), text: z.string().nullable() });
const imageSchema = z.object({ src: z.string(), href: z.string().nullable(), alt: z.string().nullable() });

/** What the sender said beside the headline, kept on the incident as it came (Events API v2 names). */
export const senderFieldsSchema = z.object({
  source: z.string().nullable(),
  component: z.string().nullable(),
  group: z.string().nullable(),
  class: z.string().nullable(),
  /** The sender's own time of the event (ISO 8601, normalized), when it gave one. */
  timestamp: z.iso.datetime().nullable(),
  severity: z.string().nullable(),
  custom_details: z.unknown().nullable(),
  links: z.array(linkSchema),
  images: z.array(imageSchema),
  client: z.string().nullable(),
  client_url: z.string().nullable(),
  /** Labels (Alertmanager's), when the sender has them. */
  labels: z.record(z.string(), z.string()).nullable(),
});
export type SenderFields = z.infer<typeof senderFieldsSchema>;

/** The one shape every receiver hands the decider. */
export interface NormalizedAlert {
  integrationId: string;
  dedupKey: string;
  action: InboundAction;
  /** The headline (a trigger's; acknowledge and resolve may carry none). */
  title: string | null;
  severity: z.infer<typeof severitySchema>;
  sender: SenderFields;
}

export type AlertOutcome = (typeof ALERT_OUTCOMES)[number];

export const inboundAlertEvents = {
  IntegrationAlertReceived: z.object({
    integrationId: z.uuid(),
    dedupKey: z.string().min(1).max(INBOUND_LIMITS.maxDedupKeyChars),
    action: z.enum(INBOUND_ACTIONS),
    /** What it did; `ignored`: an acknowledge or resolve with no open incident of the key (dropped, as PagerDuty does). */
    outcome: z.enum(ALERT_OUTCOMES),
    incidentId: z.uuid().nullable(),
    title: z.string().max(INBOUND_LIMITS.maxSummaryChars).nullable(),
    severity: severitySchema,
    at: z.iso.datetime(),
  }),
  IntegrationChangeReceived: z.object({
    changeId: z.uuid(),
    integrationId: z.uuid(),
    summary: z.string().min(1).max(INBOUND_LIMITS.maxSummaryChars),
    source: z.string().nullable(),
    timestamp: z.iso.datetime().nullable(),
    custom_details: z.unknown().nullable(),
    links: z.array(linkSchema),
    at: z.iso.datetime(),
  }),
};

export type IntegrationAlertReceivedData = z.infer<(typeof inboundAlertEvents)['IntegrationAlertReceived']>;
export type IntegrationChangeReceivedData = z.infer<(typeof inboundAlertEvents)['IntegrationChangeReceived']>;

export const integrationInboxStream = (integrationId: string) => `integrationInbox-${integrationId}`;

const SUBJECT_PREFIX = 'integration:';
export const integrationSource = (integrationId: string) => `${SUBJECT_PREFIX}${integrationId}` as const;
/** The subject of one dedup key's incidents. */
export const integrationSubject = (integrationId: string, dedupKey: string) =>
  `${SUBJECT_PREFIX}${integrationId}:${dedupKey}`;
/** The actor an integration's acknowledgements and resolutions are recorded as. */
export const integrationActor = (integrationId: string) => `${SUBJECT_PREFIX}${integrationId}`;

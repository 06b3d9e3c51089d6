/**
 * Opening and using an action link (GET and POST /a/<token>), apart from HTTP: what the link says
 * and may do now, and doing it once. The action goes through the incident command handler and
 * decider the API uses, appended expecting the revision read, recorded as the recipient
 * (`recipient:<masked address>`, or the user a user recipient is) with the link in the
 * correlation id (`action-link:<linkId>`), so the incident's history shows who and through what.
 *
 * The recipient is checked as the API would check the person, each time (recipient-standing.ts).
 *
 * Spending: ActionLinkUsed on `action-link-<linkId>`, expecting "no stream", before the command;
 * of two uses racing, the store lets exactly one append. A link is not spent when it is refused
 * (expired, revoked, incident resolved, …), only when its action is about to be taken.
 */
import { randomUUID } from 'node:crypto';
import { handleCommand, loadStream, type CommandDeps, type LoadedStream } from '../commanding/command-handler.js';
import { isDomainRejection } from '../commanding/domain-rejection.js';
import { isWrongExpectedRevision } from '../eventstore/port.js';
import { actionLinkStream } from '../events/action-link.js';
import { incidentStream, type IncidentEvent, type IncidentState, type IncidentView } from '../events/incident.js';
import { incidentDecider } from '../../commands/incidents.js';
import type { RecipientRefusal, RecipientStanding } from './recipient-standing.js';
import type { SigningKeys } from './signing-keys.js';
import { readActionLinkToken, verifyActionLinkToken, type ActionLinkClaims } from './token.js';

export type Refusal =
  | 'not_valid'
  | 'revoked'
  | 'expired'
  | 'used'
  | 'no_incident'
  | 'already_resolved'
  | 'already_acknowledged'
  | 'changed'
  | RecipientRefusal;

export type LinkCheck =
  | {
      ok: true;
      claims: ActionLinkClaims;
      incident: IncidentView;
      actor: string;
      loaded: LoadedStream<IncidentState, IncidentEvent>;
    }
  | LinkRefused;

export type LinkUse =
  | {
      ok: true;
      claims: ActionLinkClaims;
      incident: IncidentView;
      actor: string;
      events: unknown[];
      state: IncidentState;
    }
  | LinkRefused;

/** Why a link cannot act; `claims` once its signature held, `incident` once the recipient may see it. */
export interface LinkRefused {
  ok: false;
  refusal: Refusal;
  claims?: ActionLinkClaims;
  incident?: IncidentView;
}

/** Who the action is recorded as: the user a user recipient is, otherwise the masked address. */
export const actorOf = (claims: ActionLinkClaims) =>
  claims.recipient.kind === 'user' ? claims.recipient.id : `recipient:${claims.recipient.label}`;

export interface LinkUseDeps extends CommandDeps {
  keys: SigningKeys;
  /** Whether the link's recipient may act now (recipient-standing.ts). */
  recipientStanding: RecipientStanding;
}

/** Everything a link must pass before its action may be taken; changes nothing. */
export async function checkActionLink(deps: LinkUseDeps, token: string): Promise<LinkCheck> {
  const read = readActionLinkToken(token);
  if (!read) return { ok: false, refusal: 'not_valid' };
  const verdict = verifyActionLinkToken(
    token,
    await deps.keys.current(read.claims.tenantId),
    Math.floor(deps.now().getTime() / 1000),
  );
  if (!verdict.ok)
    return {
      ok: false,
      refusal: verdict.reason === 'malformed' || verdict.reason === 'tampered' ? 'not_valid' : verdict.reason,
    };
  const { claims } = verdict;
  let loaded: LoadedStream<IncidentState, IncidentEvent>;
  try {
    loaded = await loadStream(
      deps.eventStore,
      incidentDecider,
      incidentStream(claims.incidentId),
      claims.tenantId,
      'incident',
    );
  } catch (error) {
    if (isDomainRejection(error)) return { ok: false, refusal: 'no_incident' }; // another tenant's incident
    throw error;
  }
  if (!loaded.state.exists) return { ok: false, refusal: 'no_incident' };
  // Before anything about the incident's state: someone who may not act learns nothing more.
  const standing = await deps.recipientStanding(claims.tenantId, claims.recipient);
  if (standing) return { ok: false, refusal: standing, claims };
  const { exists: _exists, ...incident } = loaded.state;
  if ((await deps.eventStore.readStream(actionLinkStream(claims.linkId), { maxCount: 1 })).length > 0)
    return { ok: false, refusal: 'used', claims, incident };
  if (incident.status === 'resolved') return { ok: false, refusal: 'already_resolved', claims, incident };
  if (claims.action === 'acknowledge' && incident.status === 'acknowledged')
    return { ok: false, refusal: 'already_acknowledged', claims, incident };
  return { ok: true, claims, incident, actor: actorOf(claims), loaded };
}

/** Checks the link again, spends it, and takes its action. */
export async function useActionLink(deps: LinkUseDeps, token: string): Promise<LinkUse> {
  const check = await checkActionLink(deps, token);
  if (!check.ok) return check;
  const { claims, actor, incident } = check;
  const at = deps.now().toISOString();
  const correlationId = `action-link:${claims.linkId}`;
  // The spending event's id is chosen here, so the action's events name it as their cause.
  const causationId = randomUUID();
  try {
    const spent = {
      id: causationId,
      type: 'ActionLinkUsed',
      data: { linkId: claims.linkId, incidentId: claims.incidentId, action: claims.action, actor, at },
    };
    await deps.eventStore.append(
      actionLinkStream(claims.linkId),
      [
        {
          ...spent,
          metadata: { tenantId: claims.tenantId, actor, correlationId, causationId: correlationId, occurredAt: at },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
  } catch (error) {
    if (isWrongExpectedRevision(error)) return { ok: false, refusal: 'used', claims, incident };
    throw error;
  }
  try {
    const outcome = await handleCommand(deps, incidentDecider, {
      stream: incidentStream(claims.incidentId),
      resourceName: 'incident',
      command:
        claims.action === 'acknowledge'
          ? { kind: 'AcknowledgeIncident', incidentId: claims.incidentId }
          : { kind: 'ResolveIncident', incidentId: claims.incidentId, reason: 'manual' },
      envelope: { tenantId: claims.tenantId, actor, correlationId, causationId },
      loaded: check.loaded,
    });
    return { ok: true, claims, incident, actor, events: outcome.events, state: outcome.state };
  } catch (error) {
    // Resolved by someone else between the check and the append: the decider refused.
    if (isDomainRejection(error)) return { ok: false, refusal: 'changed', claims, incident };
    throw error;
  }
}

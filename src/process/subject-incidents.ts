/**
 * Incidents of sources other than one rule's condition (rules whose reads fail, heartbeats, the
 * platform itself): open the subject's incident when it is not open, resolve it when it is.
 *
 * A subject (`heartbeat:<id>`, `rule_error:<env>:<cluster>:<policy>`, `platform:<cause>`) has at
 * most one open incident. Its n-th incident has a fixed id (incidentIdFor), so two instances, or one
 * instance retrying after a crash, that both decide to open it append to the same new stream and
 * only the first append lands: nobody is paged twice. Which ordinal is next comes from the incidents
 * read model (the subject's latest incident); a read model behind by one incident yields the id of
 * that incident again, which the decider answers with no events.
 */
import { incidentDecider, type IncidentCommand } from '../../commands/incidents.js';
import { INCIDENTS, type IncidentDoc } from '../../projections/incidents.js';
import { handleCommand, type CommandDeps } from '../commanding/command-handler.js';
import type { IncidentSource } from '../events/vocabulary.js';
import { incidentIdFor, incidentStream } from '../events/incident.js';
import type { Severity } from '../events/vocabulary.js';
import type { ReadModelReader } from '../readstore/port.js';

export interface SubjectIncident {
  source: Exclude<IncidentSource, 'rule'>;
  subject: string;
  title: string;
  detail: string | null;
  severity: Severity;
  escalationPolicyId: string;
  envId: string | null;
  clusterId: string | null;
  /** The rules concerned (a read failure's), else none. */
  ruleIds?: string[];
}

export interface SubjectIncidentDeps extends CommandDeps {
  reader: ReadModelReader;
}

/** Who the events name as their actor, and which tick or check caused them. */
export interface SubjectCause {
  tenantId: string;
  actor: string;
  correlationId: string;
}

export type OpenOutcome = { incidentId: string; opened: boolean };

export function createSubjectIncidents(deps: SubjectIncidentDeps) {
  const command = (cause: SubjectCause, incidentId: string, cmd: IncidentCommand) =>
    handleCommand(deps, incidentDecider, {
      stream: incidentStream(incidentId),
      resourceName: 'incident',
      command: cmd,
      envelope: {
        tenantId: cause.tenantId,
        actor: cause.actor,
        correlationId: cause.correlationId,
        causationId: cause.correlationId,
      },
    });

  /** The subject's latest incident (null: it never had one). */
  async function latest(tenantId: string, subject: string): Promise<IncidentDoc | null> {
    const [doc] = await deps.reader.find<IncidentDoc>(
      INCIDENTS,
      { tenantId, subject },
      { sort: [['ordinal', 'desc']], limit: 1 },
    );
    return doc ?? null;
  }

  /** The subject's open incident (triggered or acknowledged), or null. */
  async function openIncident(tenantId: string, subject: string): Promise<IncidentDoc | null> {
    const doc = await latest(tenantId, subject);
    return doc && doc.status !== 'resolved' ? doc : null;
  }

  /** Opens the subject's incident unless one is open; `opened` says whether this call opened it. */
  async function open(cause: SubjectCause, incident: SubjectIncident): Promise<OpenOutcome> {
    const last = await latest(cause.tenantId, incident.subject);
    if (last && last.status !== 'resolved') return { incidentId: last.id, opened: false };
    const ordinal = (last?.ordinal ?? 0) + 1;
    const incidentId = incidentIdFor(incident.subject, ordinal);
    const outcome = await command(cause, incidentId, {
      kind: 'TriggerIncident',
      incident: {
        incidentId,
        source: incident.source,
        subject: incident.subject,
        title: incident.title,
        detail: incident.detail,
        ruleIds: incident.ruleIds ?? [],
        ruleId: null,
        ruleName: null,
        ordinal,
        currentValue: null,
        severity: incident.severity,
        metric: null,
        condition: null,
        threshold: null,
        envId: incident.envId,
        clusterId: incident.clusterId,
        escalationPolicyId: incident.escalationPolicyId,
      },
    });
    return { incidentId, opened: outcome.events.length > 0 };
  }

  /**
   * Resolves the subject's open incident (reason `auto`: its source says all is well again), with
   * an optional note saying why. Returns the incident resolved, or null when none was open.
   */
  async function resolve(cause: SubjectCause, subject: string, note?: string): Promise<string | null> {
    const current = await openIncident(cause.tenantId, subject);
    if (!current) return null;
    const outcome = await command(cause, current.id, {
      kind: 'ResolveIncident',
      incidentId: current.id,
      reason: 'auto',
      ...(note ? { note } : {}),
    });
    return outcome.events.length > 0 ? current.id : null;
  }

  return { open, resolve, openIncident, latest };
}

export type SubjectIncidents = ReturnType<typeof createSubjectIncidents>;

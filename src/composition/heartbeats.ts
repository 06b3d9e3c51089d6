/**
 * Composition of heartbeat monitors (docs/heartbeats.md): their command and query routes under the
 * API, the public ping address (`/hb/<token>`), the deployment's token key, and the checker that
 * pages for missed pings every HEARTBEAT_CHECK_INTERVAL_SECONDS on the given RxJS scheduler.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { SchedulerLike } from 'rxjs';
import { heartbeatPingRoutes } from '../../commands/heartbeat-ping-routes.js';
import { heartbeatCommandRoutes } from '../../commands/heartbeat-routes.js';
import { heartbeatNameKey } from '../../projections/heartbeats.js';
import { findEscalationPolicy } from '../../queries/escalation-policies.js';
import {
  findHeartbeat,
  heartbeatByTokenHash,
  heartbeatNamed,
  heartbeatQueryRoutes,
  heartbeatView,
} from '../../queries/heartbeats.js';
import type { Membership } from '../cluster/membership.js';
import type { CommandDeps } from '../commanding/command-handler.js';
import type { Config } from '../config.js';
import { heartbeatSubject } from '../events/heartbeat.js';
import type { ApiModule } from '../http/app.js';
import { createHeartbeatChecker } from '../process/heartbeats/heartbeat-checker.js';
import { scheduleHeartbeatChecks } from '../process/heartbeats/heartbeat-schedule.js';
import { pingAcceptance } from '../process/heartbeats/ping-acceptance.js';
import { heartbeatTokenKey } from '../process/heartbeats/token-key.js';
import type { SubjectIncidents } from '../process/subject-incidents.js';
import type { ReadStore } from '../readstore/port.js';
import type { PlatformArea } from './area.js';

export interface HeartbeatsDeps {
  config: Config;
  commandDeps: CommandDeps;
  readStore: ReadStore;
  subjectIncidents: SubjectIncidents;
  membership: Membership;
  logger: Logger;
  registry: Registry;
  /** The checker's timers (tests drive them in virtual time; default: real timers). */
  scheduler?: SchedulerLike;
}

export function composeHeartbeats(deps: HeartbeatsDeps) {
  const { commandDeps, readStore: reader, subjectIncidents, config } = deps;
  const tokenKey = heartbeatTokenKey(commandDeps.eventStore, commandDeps.now);
  const checker = createHeartbeatChecker({
    reader,
    subjectIncidents,
    now: commandDeps.now,
    owns: (key) => deps.membership.owns(key),
    newCorrelationId: randomUUID,
  });
  const checks = new Counter({
    name: 'heartbeat_checks_total',
    help: 'Heartbeat checks this instance ran to their end',
    registers: [deps.registry],
  });
  const missedPages = new Counter({
    name: 'heartbeat_missed_incidents_opened_total',
    help: 'Incidents this instance opened for missed heartbeat pings',
    registers: [deps.registry],
  });
  const schedule = scheduleHeartbeatChecks(checker, {
    intervalSeconds: config.heartbeats.checkIntervalSeconds,
    logger: deps.logger,
    scheduler: deps.scheduler,
    onReport: (report) => {
      checks.inc();
      missedPages.inc(report.opened);
    },
  });

  const routes: ApiModule[] = [
    {
      alias: false,
      routes: () =>
        heartbeatCommandRoutes({
          ...commandDeps,
          policyExists: async (tenantId, id) => (await findEscalationPolicy(reader, tenantId, id)) !== null,
          heartbeatNamed: async (tenantId, name) =>
            (await heartbeatNamed(reader, tenantId, heartbeatNameKey(name)))?.id ?? null,
          viewHeartbeat: async (tenantId, id) => {
            const doc = await findHeartbeat(reader, tenantId, id);
            return doc ? heartbeatView(doc, commandDeps.now()) : null;
          },
          tokenKey,
          publicUrl: config.notify.publicUrl,
          resolveOpenIncident: (envelope, heartbeatId, note) =>
            subjectIncidents.resolve(
              { tenantId: envelope.tenantId, actor: envelope.actor, correlationId: envelope.correlationId },
              heartbeatSubject(heartbeatId),
              note,
            ),
        }),
    },
    {
      alias: false,
      routes: () => heartbeatQueryRoutes({ reader, eventStore: commandDeps.eventStore, now: commandDeps.now }),
    },
  ];

  return {
    area: { routes, processes: [schedule] } satisfies PlatformArea,
    publicRoutes: () =>
      heartbeatPingRoutes({
        tokenKey,
        findByTokenHash: (tokenHash) => heartbeatByTokenHash(reader, tokenHash),
        accept: pingAcceptance({ ...commandDeps, reader, subjectIncidents }),
        pingsPerAddressPerMinute: config.heartbeats.pingsPerAddressPerMinute,
      }),
    checker,
    schedule,
    /** The deployment's key for keyed hashes of public credentials (integration routing keys use it too). */
    tokenKey,
  };
}

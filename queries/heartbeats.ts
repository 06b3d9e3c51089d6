/**
 * Heartbeat GET routes: the tenant's heartbeats (newest first, the tenant in the query itself),
 * one heartbeat with its ETag, and its audit history (the settings stream's events, `audit:read`).
 * The status (`up`, `late`, `down`, …) is computed here from the last ping and the clock
 * (src/events/heartbeat-due.ts), never stored: a heartbeat goes late with no event.
 */
import type { Heartbeat } from '../src/contract/heartbeats.js';
import Router from '@koa/router';
import { HEARTBEATS, NEVER, type HeartbeatDoc } from '../projections/heartbeats.js';
import type { EventStore } from '../src/eventstore/port.js';
import { maskSecret } from '../src/events/channel-secrets.js';
import { dueAtMs, expectedAtMs, heartbeatStatus, timingOfHeartbeat as timingOf } from '../src/events/heartbeat-due.js';
import { heartbeatStream } from '../src/events/heartbeat.js';
import { etagOf } from '../src/http/command-context.js';
import { ok, okPage } from '../src/http/envelope.js';
import { tenantStreamHistory } from '../src/http/event-history.js';
import { requires } from '../src/http/guard.js';
import { pageRequest, readPage } from '../src/http/pagination.js';
import { notFound } from '../src/http/problem.js';
import { listParameters, queryParameters } from '../src/http/query-parameters.js';
import { findTenantDoc } from '../src/http/read-model-routes.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import type { ReadModelReader } from '../src/readstore/port.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** The heartbeat as clients see it, as of `at`. */
export function heartbeatView(doc: HeartbeatDoc, at: Date): Heartbeat {
  const timing = timingOf(doc);
  return {
    id: doc.id,
    tenant_id: doc.tenantId,
    name: doc.name,
    interval_seconds: doc.intervalSeconds,
    grace_seconds: doc.graceSeconds,
    escalation_policy_id: doc.escalationPolicyId,
    severity: doc.severity,
    enabled: doc.enabled,
    status: heartbeatStatus(timing, at.getTime()),
    has_ping_address: doc.tokenHash !== null,
    // A hint of an address is still an address's piece: masked the way channel secrets are.
    token_hint: doc.tokenHint === null ? null : maskSecret(`${'x'.repeat(8)}${doc.tokenHint}`),
    token_issued_at: doc.tokenIssuedAt,
    last_ping_at: doc.lastPingAt,
    last_ping_status: doc.lastPingStatus,
    last_ping_message: doc.lastPingMessage,
    expected_by: doc.enabled ? iso(expectedAtMs(timing)) : null,
    pages_at: doc.enabled && doc.dueAt !== NEVER ? iso(dueAtMs(timing)) : null,
    open_incident_id: doc.openIncidentId,
    created_at: doc.createdAt,
    created_by: doc.createdBy,
    updated_at: doc.updatedAt,
  };
}

export const findHeartbeat = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<HeartbeatDoc>(reader, HEARTBEATS, tenantId, id, (doc) => !doc.deleted);

/** Another live heartbeat of the tenant with this name key (the uniqueness check), or null. */
export async function heartbeatNamed(reader: ReadModelReader, tenantId: string, nameKey: string) {
  const [doc] = await reader.find<HeartbeatDoc>(HEARTBEATS, { tenantId, nameKey, deleted: false }, { limit: 1 });
  return doc ?? null;
}

/** The live heartbeat whose ping address has this keyed hash (any tenant: a ping names none), or null. */
export async function heartbeatByTokenHash(reader: ReadModelReader, tokenHash: string) {
  const [doc] = await reader.find<HeartbeatDoc>(HEARTBEATS, { tokenHash }, { limit: 2 });
  return doc && !doc.deleted ? doc : null;
}

export function heartbeatQueryRoutes(deps: { reader: ReadModelReader; eventStore: EventStore; now: () => Date }) {
  const router = new Router<AppState>();
  router.get('/heartbeats', requires('alerts:read'), listParameters([]), async (ctx) => {
    const { items, page } = await readPage<HeartbeatDoc>(
      deps.reader,
      HEARTBEATS,
      { tenantId: ctx.state.principal.tenantId, deleted: false },
      [['createdAt', 'desc']],
      pageRequest(ctx),
    );
    const now = deps.now();
    okPage(
      ctx,
      items.map((doc) => heartbeatView(doc, now)),
      page,
    );
  });

  router.get('/heartbeats/:id', requires('alerts:read'), queryParameters([]), async (ctx) => {
    const doc = await findHeartbeat(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('heartbeat');
    ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, heartbeatView(doc, deps.now()));
  });

  /** Every settings event, oldest first (pings are on their own stream). Readable after deletion. */
  router.get('/heartbeats/:id/events', requires('audit:read'), queryParameters([]), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'heartbeat');
    ok(ctx, await tenantStreamHistory(deps.eventStore, heartbeatStream(id), ctx.state.principal.tenantId, 'heartbeat'));
  });
  return router;
}

/**
 * Integration GET routes: the tenant's integrations (newest first, the tenant in the query itself),
 * one integration with its ETag, its audit history (the settings stream's events, `audit:read`),
 * and the tenant's change events (`POST /v2/change/enqueue`, newest first, optionally of one
 * integration). The routing key is never shown: only its masked last four characters.
 */
import type { ChangeEvent, Integration } from '../src/contract/integrations.js';
import Router from '@koa/router';
import { z } from 'zod';
import { CHANGE_EVENTS, type ChangeEventDoc } from '../projections/change-events.js';
import { INTEGRATIONS, type IntegrationDoc } from '../projections/integrations.js';
import type { EventStore } from '../src/eventstore/port.js';
import { maskSecret } from '../src/events/channel-secrets.js';
import { integrationStream } from '../src/events/integration.js';
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
import type { Filter, ReadModelReader } from '../src/readstore/port.js';

/** The replaced key's end, while it lasts (a past one is as good as none). */
const liveUntil = (doc: IntegrationDoc, at: Date) =>
  doc.previousValidUntil !== null && doc.previousValidUntil > at.toISOString() ? doc.previousValidUntil : null;

/** The integration as clients see it, as of `at`. */
export function integrationView(doc: IntegrationDoc, at: Date): Integration {
  return {
    id: doc.id,
    tenant_id: doc.tenantId,
    name: doc.name,
    kind: doc.kind,
    escalation_policy_id: doc.escalationPolicyId,
    severity_map: doc.severityMap,
    default_severity: doc.defaultSeverity,
    config: doc.config ?? {},
    has_routing_key: doc.keyHash !== null,
    // A hint of a key is still a key's piece: masked the way channel secrets are.
    routing_key_hint: doc.keyHint === null ? null : maskSecret(`${'x'.repeat(8)}${doc.keyHint}`),
    routing_key_issued_at: doc.keyIssuedAt,
    previous_key_valid_until: liveUntil(doc, at),
    last_event_at: doc.lastEventAt,
    events_received: doc.eventsReceived,
    created_at: doc.createdAt,
    created_by: doc.createdBy,
    updated_at: doc.updatedAt,
  };
}

export const findIntegration = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<IntegrationDoc>(reader, INTEGRATIONS, tenantId, id, (doc) => !doc.deleted);

/** Another live integration of the tenant with this name key (the uniqueness check), or null. */
export async function integrationNamed(reader: ReadModelReader, tenantId: string, nameKey: string) {
  const [doc] = await reader.find<IntegrationDoc>(INTEGRATIONS, { tenantId, nameKey, deleted: false }, { limit: 1 });
  return doc ?? null;
}

/**
 * The live integration whose routing key has this keyed hash (any tenant: an event names none),
 * or null: its current key, or the key its last rotation replaced while that one's grace lasts.
 */
export async function integrationByKeyHash(reader: ReadModelReader, keyHash: string, at: Date) {
  const [current] = await reader.find<IntegrationDoc>(INTEGRATIONS, { keyHash }, { limit: 1 });
  if (current && !current.deleted) return current;
  const [previous] = await reader.find<IntegrationDoc>(INTEGRATIONS, { previousKeyHash: keyHash }, { limit: 1 });
  return previous && !previous.deleted && liveUntil(previous, at) !== null ? previous : null;
}

const changeView = (doc: ChangeEventDoc): ChangeEvent => ({
  id: doc.id,
  integration_id: doc.integrationId,
  summary: doc.summary,
  source: doc.source,
  timestamp: doc.timestamp,
  received_at: doc.receivedAt,
  custom_details: doc.custom_details ?? null,
  links: doc.links,
});

const changeListQuery = z.object({ integration_id: z.uuid().optional() });

export function integrationQueryRoutes(deps: { reader: ReadModelReader; eventStore: EventStore; now: () => Date }) {
  const router = new Router<AppState>();
  router.get('/integrations', requires('integrations:read'), listParameters([]), async (ctx) => {
    const { items, page } = await readPage<IntegrationDoc>(
      deps.reader,
      INTEGRATIONS,
      { tenantId: ctx.state.principal.tenantId, deleted: false },
      [['createdAt', 'desc']],
      pageRequest(ctx),
    );
    const now = deps.now();
    okPage(
      ctx,
      items.map((doc) => integrationView(doc, now)),
      page,
    );
  });

  router.get('/integrations/:id', requires('integrations:read'), queryParameters([]), async (ctx) => {
    const doc = await findIntegration(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('integration');
    ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, integrationView(doc, deps.now()));
  });

  /** Every settings event, oldest first (what it received is on its inbox stream). Readable after deletion. */
  router.get('/integrations/:id/events', requires('audit:read'), queryParameters([]), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'integration');
    ok(
      ctx,
      await tenantStreamHistory(deps.eventStore, integrationStream(id), ctx.state.principal.tenantId, 'integration'),
    );
  });

  router.get('/change-events', requires('integrations:read'), listParameters(['integration_id']), async (ctx) => {
    const query = changeListQuery.parse(ctx.query);
    const filter: Filter = { tenantId: ctx.state.principal.tenantId };
    if (query.integration_id) filter.integrationId = query.integration_id;
    const { items, page } = await readPage<ChangeEventDoc>(
      deps.reader,
      CHANGE_EVENTS,
      filter,
      [['receivedAt', 'desc']],
      pageRequest(ctx),
    );
    okPage(ctx, items.map(changeView), page);
  });
  return router;
}

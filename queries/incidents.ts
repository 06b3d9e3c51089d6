import { z } from 'zod';
import type { Incident, IncidentAsOf } from '../src/contract/incidents.js';
import { INCIDENTS, type IncidentDoc } from '../projections/incidents.js';
import { loadStream } from '../src/commanding/command-handler.js';
import type { EventStore } from '../src/eventstore/port.js';
import {
  evolveIncident,
  incidentStream,
  initialIncidentState,
  publicIncident,
  type IncidentState,
  type IncidentStreamEvent,
} from '../src/events/incident.js';
import { INCIDENT_SOURCES } from '../src/contract/vocabulary.js';
import { severitySchema } from '../src/events/vocabulary.js';
import { apiInstant, SUPPORTED_INSTANTS } from '../src/contract/api-instant.js';
import { ok } from '../src/http/envelope.js';
import { historyChainOf, historyEntry } from '../src/http/event-history.js';
import { requires } from '../src/http/guard.js';
import { findTenantDoc, readModelRoutes } from '../src/http/read-model-routes.js';
import { optionalString } from '../src/http/optional-string.js';
import { storedResourceId } from '../src/http/resource-id.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { badRequest, forbidden, notFound } from '../src/http/problem.js';
import type { Filter, ReadModelReader } from '../src/readstore/port.js';

const STATUSES = ['triggered', 'acknowledged', 'resolved'] as const;
export const incidentListQuery = z.object({
  status: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const statuses = value.split(',').map((s) => s.trim());
      const unknown = statuses.filter((s) => !(STATUSES as readonly string[]).includes(s));
      if (unknown.length > 0)
        ctx.addIssue({ code: 'custom', message: `unknown status ${unknown.join(', ')}; use ${STATUSES.join(', ')}` });
      return statuses;
    }),
  severity: severitySchema.optional(),
  source: z
    .union([z.enum([...INCIDENT_SOURCES, 'integration']), z.templateLiteral(['integration:', z.uuid()])])
    .optional()
    .meta({
      description:
        "one source: `rule`, `rule_error`, `heartbeat`, `platform`, `integration:<id>` (one integration's), or `integration` (every integration's)",
    }),
  rule_id: z.string().optional(),
  from: apiInstant.optional(),
  to: apiInstant.optional(),
});

export const incidentView = ({ tenantId: _t, revision: _r, ...view }: IncidentDoc): Incident =>
  publicIncident(withOptionalStrings(view));

/** The incident's optional strings, null when unset (a note may have been sent as ""). */
const withOptionalStrings = <V extends { cluster_id: string | null; resolution_note: string | null }>(view: V): V => ({
  ...view,
  cluster_id: optionalString(view.cluster_id),
  resolution_note: optionalString(view.resolution_note),
});

export function incidentQueryRoutes(deps: { reader: ReadModelReader; eventStore: EventStore }) {
  const router = readModelRoutes<IncidentDoc>(deps.reader, {
    path: '/incidents',
    resourceName: 'incident',
    permission: 'incidents:read',
    collection: INCIDENTS,
    sort: [['triggered_at', 'desc']],
    view: incidentView,
    item: false,
    accepts: Object.keys(incidentListQuery.shape),
    listFilter: (ctx) => {
      const query = incidentListQuery.parse(ctx.query);
      const filter: Filter = {};
      if (query.status) filter.status = { $in: query.status };
      if (query.severity) filter.severity = query.severity;
      // Every integration's: the sources `integration:<id>`, which sort between these two strings.
      if (query.source === 'integration') filter.source = { $gte: 'integration:', $lt: 'integration;' };
      else if (query.source) filter.source = query.source;
      if (query.rule_id) filter.rule_id = query.rule_id;
      if (query.from || query.to) {
        filter.triggered_at = {
          ...(query.from ? { $gte: new Date(query.from).toISOString() } : {}),
          ...(query.to ? { $lte: new Date(query.to).toISOString() } : {}),
        };
      }
      return filter;
    },
  });

  const loadIncidentEvents = async (tenantId: string, id: string) => {
    storedResourceId(id, 'incident');
    const loaded = await loadStream<IncidentState, IncidentStreamEvent>(
      deps.eventStore,
      { initialState: initialIncidentState, evolve: evolveIncident },
      incidentStream(id),
      tenantId,
      'incident',
    );
    if (loaded.events.length === 0) throw notFound('incident');
    return loaded;
  };

  /** The incident now (read model), or with ?as_of= as it was then, folded from its events. */
  router.get('/incidents/:id', requires('incidents:read'), queryParameters(['as_of']), async (ctx) => {
    const { tenantId } = ctx.state.principal;
    const asOf = ctx.query.as_of;
    if (asOf === undefined) {
      const doc = await findTenantDoc<IncidentDoc>(deps.reader, INCIDENTS, tenantId, ctx.params.id!);
      if (!doc) throw notFound('incident');
      ok(ctx, incidentView(doc));
      return;
    }
    if (!(await ctx.state.can('audit:read'))) throw forbidden('as_of needs the permission audit:read');
    const moment = apiInstant.safeParse(asOf);
    if (!moment.success)
      throw badRequest(`as_of must be an ISO 8601 instant ${SUPPORTED_INSTANTS}`, [
        { path: '/as_of', message: `must be an ISO 8601 instant ${SUPPORTED_INSTANTS}` },
      ]);
    const at = Date.parse(moment.data);
    const loaded = await loadIncidentEvents(tenantId, ctx.params.id!);
    const upTo = loaded.domainEvents.filter((_, i) => Date.parse(loaded.events[i]!.metadata.occurredAt) <= at);
    const state = upTo.reduce(evolveIncident, initialIncidentState());
    if (!state.exists) throw notFound(`incident at ${moment.data} (it was triggered later)`);
    const { exists: _e, ...view } = state;
    const asItWas: IncidentAsOf = { ...publicIncident(withOptionalStrings(view)), as_of: new Date(at).toISOString() };
    ok(ctx, asItWas);
  });

  /** The raw event history, for auditors. */
  router.get('/incidents/:id/events', requires('audit:read'), queryParameters([]), async (ctx) => {
    const loaded = await loadIncidentEvents(ctx.state.principal.tenantId, ctx.params.id!);
    const chain = await historyChainOf(deps.eventStore, incidentStream(ctx.params.id!));
    ok(
      ctx,
      loaded.events.map((event) => historyEntry(event, chain)),
    );
  });
  return router;
}

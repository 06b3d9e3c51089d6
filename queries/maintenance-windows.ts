/**
 * Maintenance window GET routes: the tenant's windows (newest first, or with `active_at` those
 * active at that instant), one window with its ETag, and its audit history (the raw events of its
 * stream, `audit:read`, as channels and incidents expose theirs). Whether a window is active is
 * computed here from its timing (src/events/maintenance-window-timing.ts), never stored: a weekly
 * window turns on and off with no event.
 */
import type { MaintenanceWindow } from '../src/contract/maintenance-windows.js';
import Router from '@koa/router';
import { z } from 'zod';
import { MAINTENANCE_WINDOWS, type MaintenanceWindowDoc } from '../projections/maintenance-windows.js';
import type { EventStore } from '../src/eventstore/port.js';
import { maintenanceWindowStream } from '../src/events/maintenance-window.js';
import { activeOccurrence, nextBoundary, type TimedWindow } from '../src/events/maintenance-window-timing.js';
import { apiInstant } from '../src/contract/api-instant.js';
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

function iso(instant: number): string;
function iso(instant: number | null): string | null;
function iso(instant: number | null) {
  return instant === null ? null : new Date(instant).toISOString();
}

export const timedWindowOf = (doc: Pick<MaintenanceWindowDoc, 'timing' | 'createdAt' | 'endedAt'>): TimedWindow => ({
  timing: doc.timing,
  createdAt: doc.createdAt,
  endedAt: doc.endedAt,
});

/** The window as clients see it; `active`, `current_occurrence` and `next_change_at` are as of `at`. */
export function maintenanceWindowView(doc: MaintenanceWindowDoc, at: Date): MaintenanceWindow {
  const { timing, matcher } = doc;
  const timed = timedWindowOf(doc);
  const occurrence = activeOccurrence(timed, at.getTime());
  return {
    id: doc.id,
    tenant_id: doc.tenantId,
    name: doc.name,
    reason: doc.reason,
    matcher: {
      all_rules: matcher.allRules,
      rule_ids: matcher.ruleIds,
      cluster_ids: matcher.clusterIds,
      severities: matcher.severities,
    },
    starts_at: timing.kind === 'once' ? timing.startsAt : null,
    ends_at: timing.kind === 'once' ? timing.endsAt : null,
    recurrence:
      timing.kind === 'weekly'
        ? {
            days: timing.days,
            start_time: timing.startTime,
            duration_minutes: timing.durationMinutes,
            time_zone: timing.timeZone,
          }
        : null,
    active: occurrence !== null,
    current_occurrence: occurrence === null ? null : { starts_at: iso(occurrence.start), ends_at: iso(occurrence.end) },
    /** When it next turns active or inactive (null: never again). */
    next_change_at: iso(nextBoundary(timed, at.getTime())),
    ended_at: doc.endedAt,
    ended_by: doc.endedBy,
    created_at: doc.createdAt,
    created_by: doc.createdBy,
    updated_at: doc.updatedAt,
  };
}

export const findMaintenanceWindow = (reader: ReadModelReader, tenantId: string, id: string) =>
  findTenantDoc<MaintenanceWindowDoc>(reader, MAINTENANCE_WINDOWS, tenantId, id, (doc) => !doc.deleted);

/**
 * The windows of a tenant (or of every tenant: the evaluator's one read per tick) that can be
 * active at `at`: not deleted and not over. The caller asks the timing which of them are.
 */
export function liveWindows(reader: ReadModelReader, at: Date, tenantId?: string) {
  const filter = { deleted: false, liveUntil: { $gt: at.toISOString() } };
  return reader.find<MaintenanceWindowDoc>(
    MAINTENANCE_WINDOWS,
    tenantId === undefined ? filter : { tenantId, ...filter },
  );
}

export const maintenanceWindowListQuery = z.object({
  active_at: apiInstant
    .optional()
    .meta({ description: 'only the windows active at this instant (then one page holds them all)' }),
});

export function maintenanceWindowQueryRoutes(deps: {
  reader: ReadModelReader;
  eventStore: EventStore;
  now: () => Date;
}) {
  const router = new Router<AppState>();
  router.get(
    '/maintenance-windows',
    requires('alerts:read'),
    listParameters(Object.keys(maintenanceWindowListQuery.shape)),
    async (ctx) => {
      const { tenantId } = ctx.state.principal;
      const query = maintenanceWindowListQuery.parse(ctx.query);
      if (query.active_at !== undefined) {
        const at = new Date(query.active_at);
        const active = (await liveWindows(deps.reader, at, tenantId))
          .filter((doc) => activeOccurrence(timedWindowOf(doc), at.getTime()) !== null)
          .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
        okPage(
          ctx,
          active.map((doc) => maintenanceWindowView(doc, at)),
          { limit: active.length, next_cursor: null },
        );
        return;
      }
      const { items, page } = await readPage<MaintenanceWindowDoc>(
        deps.reader,
        MAINTENANCE_WINDOWS,
        { tenantId, deleted: false },
        [['createdAt', 'desc']],
        pageRequest(ctx),
      );
      const now = deps.now();
      okPage(
        ctx,
        items.map((doc) => maintenanceWindowView(doc, now)),
        page,
      );
    },
  );

  router.get('/maintenance-windows/:id', requires('alerts:read'), queryParameters([]), async (ctx) => {
    const doc = await findMaintenanceWindow(deps.reader, ctx.state.principal.tenantId, ctx.params.id!);
    if (!doc) throw notFound('maintenance window');
    ctx.set('ETag', etagOf(doc.revision));
    ok(ctx, maintenanceWindowView(doc, deps.now()));
  });

  /** Every event of the window, oldest first: who created, changed, ended or deleted it, and when. Readable after deletion. */
  router.get('/maintenance-windows/:id/events', requires('audit:read'), queryParameters([]), async (ctx) => {
    const id = storedResourceId(ctx.params.id, 'maintenance window');
    ok(
      ctx,
      await tenantStreamHistory(
        deps.eventStore,
        maintenanceWindowStream(id),
        ctx.state.principal.tenantId,
        'maintenance window',
      ),
    );
  });
  return router;
}

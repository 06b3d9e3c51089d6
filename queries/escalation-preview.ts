/**
 * "Who gets paged if this fires now?": GET /escalation-policies/{id}/preview?at=&cycles= for a
 * saved policy, and the answer the unsaved-body form (commands/escalation-preview-routes.ts, POST)
 * gives too. For a trigger at `at` (default now): when each stage would fire and whom it would
 * reach, resolved by the escalation manager's own code (src/process/escalation/escalation-preview.ts).
 * Reads only: nothing is appended, nothing sent.
 *
 * Bounded: each request reads what it names once and resolves each (schedule, instant) once
 * (src/process/escalation/preview-directory.ts); a preview whose work units exceed the budget is
 * a 422 naming the budget and the figure, before any on-call is resolved; the routes hold a heavy
 * request slot (src/http/heavy-request-slots.ts) and the work yields between time slices.
 */
import type { EscalationPreview } from '../src/contract/escalation-preview.js';
import Router from '@koa/router';
import { z } from 'zod';
import { apiInstant } from '../src/contract/api-instant.js';
import { ok } from '../src/http/envelope.js';
import { requires } from '../src/http/guard.js';
import { heavyRequest, type HeavyRequestSlots } from '../src/http/heavy-request-slots.js';
import { notFound, unprocessableContent } from '../src/http/problem.js';
import { queryParameters } from '../src/http/query-parameters.js';
import { storedResourceId } from '../src/http/resource-id.js';
import type { AppState } from '../src/http/state.js';
import {
  MAX_PREVIEW_CYCLES,
  previewEscalation,
  previewFirings,
  previewWorkUnits,
  type PreviewPlan,
} from '../src/process/escalation/escalation-preview.js';
import type { PreviewDirectory } from '../src/process/escalation/preview-directory.js';
import type { ReadModelReader } from '../src/readstore/port.js';
import { timeSlices, type Pause } from '../src/time-slice.js';
import { escalationPlanOf } from './escalation-directory.js';
import { repeatView, stageView, targetNames } from './escalation-preview-view.js';

export const escalationPreviewQuery = z.strictObject({
  at: apiInstant.optional().meta({ description: 'the trigger instant (ISO 8601 with an offset or Z); default now' }),
  cycles: z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(
      z.number().int().min(1, 'must be at least 1').max(MAX_PREVIEW_CYCLES, `must be at most ${MAX_PREVIEW_CYCLES}`),
    )
    .optional()
    .meta({ description: `how many cycles of a repeating policy to list, 1–${MAX_PREVIEW_CYCLES} (default 1)` }),
});

export interface EscalationPreviewDeps {
  reader: ReadModelReader;
  /** A fresh directory for one request: the escalation manager's own lookups, each read once (queries/escalation-directory.ts). */
  directoryForRequest: (pause: Pause) => PreviewDirectory;
  /** The most work units one preview may cost (ESCALATION_PREVIEW_WORK_UNITS). */
  workBudget: number;
  now: () => Date;
}

/** The preview of a plan, for the query `?at=&cycles=` (parsed here: a ZodError is a 400). */
export function escalationPreviewAnswer(deps: EscalationPreviewDeps) {
  return async (
    tenantId: string,
    policy: { id: string | null; name: string },
    plan: PreviewPlan,
    rawQuery: unknown,
  ): Promise<EscalationPreview> => {
    const query = escalationPreviewQuery.parse(rawQuery);
    const at = query.at ? new Date(query.at) : deps.now();
    const cycles = plan.repeatIntervalMinutes > 0 ? (query.cycles ?? 1) : 1;
    const pause = timeSlices();
    const directory = deps.directoryForRequest(pause);
    const units = await previewWorkUnits(plan, previewFirings(plan, at, cycles), (scheduleId) =>
      directory.scheduleUnits(tenantId, scheduleId),
    );
    if (units > deps.workBudget) {
      throw unprocessableContent(
        `this preview would cost ${units} work units; the limit (ESCALATION_PREVIEW_WORK_UNITS) is ${deps.workBudget}. A unit is one person in a layer or one override of a schedule target, at each instant a stage naming it fires; ask for fewer cycles or preview fewer schedule targets`,
        { limit: 'ESCALATION_PREVIEW_WORK_UNITS', limit_value: deps.workBudget, work_units: units },
      );
    }
    const [stages, names] = await Promise.all([
      previewEscalation(directory, tenantId, plan, at, cycles),
      targetNames(deps.reader, tenantId, plan, pause),
    ]);
    return {
      policy,
      at: at.toISOString(),
      repeat_interval_minutes: plan.repeatIntervalMinutes,
      stages: stages.map((stage) => stageView(stage, names)),
      repeat: repeatView(plan, stages),
    };
  };
}

export function escalationPreviewQueryRoutes(
  deps: EscalationPreviewDeps & { slots: HeavyRequestSlots },
): Router<AppState> {
  const router = new Router<AppState>();
  const answer = escalationPreviewAnswer(deps);

  router.get(
    '/escalation-policies/:id/preview',
    requires('escalation:read'),
    queryParameters(['at', 'cycles']),
    heavyRequest(deps.slots),
    async (ctx) => {
      const tenantId = ctx.state.principal.tenantId;
      // Parsed before the lookup, so a bad `at` is a 400 whether or not the policy exists.
      escalationPreviewQuery.parse(ctx.query);
      const id = storedResourceId(ctx.params.id, 'escalation policy');
      // The plan the manager would snapshot at trigger time (its findPolicy is this same function).
      const plan = await escalationPlanOf(deps.reader, tenantId, id);
      if (!plan) throw notFound('escalation policy');
      ok(ctx, await answer(tenantId, { id, name: plan.policyName }, plan, ctx.query));
    },
  );

  return router;
}

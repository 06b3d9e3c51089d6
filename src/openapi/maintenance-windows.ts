/** Maintenance windows (commands/maintenance-window-routes.ts, queries/maintenance-windows.ts). */
import { z } from 'zod';
import { maintenanceWindowBodySchema } from '../contract/bodies/maintenance-windows.js';
import { maintenanceWindowListQuery } from '../../queries/maintenance-windows.js';
import { maintenanceWindowSchema } from '../contract/maintenance-windows.js';
import type { OperationDoc } from './operation.js';
import { historyEntrySchema, resourceId } from './shared-schemas.js';

const tag = 'Maintenance windows';

const windowResponse = (description: string, status: 200 | 201 = 200) =>
  ({
    kind: 'envelope',
    status,
    description,
    data: maintenanceWindowSchema,
    etag: true,
    ...(status === 201 ? { location: true } : {}),
  }) as const;

const BODY_RULES =
  'Either `starts_at` and `ends_at` (at most 30 days apart, ending after it starts) or a weekly `recurrence` ' +
  '(local `start_time` in `time_zone`, DST as the on-call schedules handle it) whose occurrences each end before the next begins ' +
  '(`duration_minutes` less than the fewest whole days between two consecutive `days` × 1440, else 400 naming `/recurrence/duration_minutes`); ' +
  '`matcher.rule_ids` must be rules of the tenant. A window silences only from its creation, whatever its timing says of the time before.';

export const maintenanceWindowOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/maintenance-windows',
    tag,
    summary: 'List maintenance windows',
    description: 'Newest first. With `active_at`, only the windows active at that instant (one page holds them all).',
    query: maintenanceWindowListQuery.shape,
    response: {
      kind: 'envelope',
      status: 200,
      description: 'A page of windows',
      data: maintenanceWindowSchema,
      list: true,
    },
  },
  {
    method: 'post',
    path: '/maintenance-windows',
    tag,
    summary: 'Create a maintenance window',
    body: maintenanceWindowBodySchema,
    description: `While active, matching rules are still evaluated (recorded as \`silenced\`), no incident opens, and open incidents' remaining escalation stages are held. ${BODY_RULES}`,
    response: windowResponse('The window', 201),
  },
  {
    method: 'get',
    path: '/maintenance-windows/:id',
    tag,
    summary: 'Get a maintenance window',
    response: windowResponse('The window'),
  },
  {
    method: 'put',
    path: '/maintenance-windows/:id',
    tag,
    summary: 'Replace a maintenance window',
    body: maintenanceWindowBodySchema,
    ifMatch: true,
    description: BODY_RULES,
    problems: { 409: 'The window was ended (`ended_at`); create a new one' },
    response: windowResponse('The window'),
  },
  {
    method: 'post',
    path: '/maintenance-windows/:id/end',
    tag,
    summary: 'End a maintenance window now',
    ifMatch: true,
    description:
      'Inactive from now on (a weekly window for good); held escalations resume. Ending an ended window changes nothing.',
    response: windowResponse('The window'),
  },
  {
    method: 'delete',
    path: '/maintenance-windows/:id',
    tag,
    summary: 'Delete a maintenance window',
    ifMatch: true,
    description: 'Held escalations resume. Its history stays readable.',
    response: {
      kind: 'envelope',
      status: 200,
      description: 'Deleted',
      data: z.object({ id: resourceId, deleted: z.literal(true) }),
    },
  },
  {
    method: 'get',
    path: '/maintenance-windows/:id/events',
    tag,
    summary: "A maintenance window's raw event history",
    description: 'Needs `audit:read`. Oldest first: who created, changed, ended or deleted it, and when.',
    response: {
      kind: 'envelope',
      status: 200,
      description: "Every event of the window's stream, oldest first",
      data: z.array(historyEntrySchema),
    },
  },
];

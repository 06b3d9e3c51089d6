/** Composition of on-call schedules: routes over the schedules read model, users checked against the users read model, and the preview of an unsaved schedule. */
import { schedulePreviewRoutes } from '../../commands/schedule-preview-routes.js';
import { scheduleCommandRoutes, type NamedUser } from '../../commands/schedule-routes.js';
import { USERS, type UserDoc } from '../../projections/users.js';
import { policiesWithTarget } from '../../queries/escalation-policies.js';
import {
  findSchedule,
  onCallRange,
  renderOnCallRange,
  scheduleQueryRoutes,
  scheduleView,
} from '../../queries/schedules.js';
import type { CommandDeps } from '../commanding/command-handler.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { PlatformArea } from './area.js';

export function composeSchedules(deps: { commandDeps: CommandDeps; reader: ReadModelReader }): PlatformArea {
  const { commandDeps, reader } = deps;
  const unknownUsers = async (tenantId: string, named: NamedUser[]) => {
    const ids = [...new Set(named.map((n) => n.userId))];
    const live = await reader.find<UserDoc>(USERS, { tenantId, id: { $in: ids }, removed: false });
    const known = new Set(live.map((user) => user.id));
    return named
      .filter((n) => !known.has(n.userId))
      .map((n) => ({ path: n.path, message: `no user ${n.userId} in this tenant` }));
  };
  return {
    processes: [],
    routes: [
      {
        alias: true,
        routes: () =>
          scheduleCommandRoutes({
            ...commandDeps,
            unknownUsers,
            policiesUsing: (tenantId, scheduleId) => policiesWithTarget(reader, tenantId, scheduleId),
            viewSchedule: async (tenantId, id) => {
              const doc = await findSchedule(reader, tenantId, id);
              return doc ? scheduleView(doc) : null;
            },
          }),
      },
      { alias: true, routes: () => scheduleQueryRoutes({ reader, now: commandDeps.now }) },
      {
        alias: true,
        routes: () =>
          schedulePreviewRoutes({
            unknownUsers,
            renderRange: (tenantId, definition, query) => {
              const { since, until } = onCallRange(query, commandDeps.now());
              return renderOnCallRange(reader, tenantId, definition, since, until);
            },
          }),
      },
    ],
  };
}

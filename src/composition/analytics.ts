/** Composition of incident analytics: the read model of incident facts and its two query routes. */
import type { HeavyRequestSlots } from '../http/heavy-request-slots.js';
import { analyticsQueryRoutes } from '../../queries/analytics.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { PlatformArea } from './area.js';

export function composeAnalytics(deps: {
  reader: ReadModelReader;
  now: () => Date;
  heavySlots: HeavyRequestSlots;
}): PlatformArea {
  return {
    processes: [],
    routes: [
      {
        alias: false,
        routes: () => analyticsQueryRoutes({ reader: deps.reader, now: deps.now, slots: deps.heavySlots }),
      },
    ],
  };
}

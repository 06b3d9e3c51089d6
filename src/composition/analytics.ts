/** Composition of incident analytics: the read model of incident facts and its two query routes. */
import { analyticsQueryRoutes } from '../../queries/analytics.js';
import type { ReadModelReader } from '../readstore/port.js';
import type { PlatformArea } from './area.js';

export function composeAnalytics(deps: { reader: ReadModelReader; now: () => Date }): PlatformArea {
  return {
    processes: [],
    routes: [{ alias: false, routes: () => analyticsQueryRoutes(deps) }],
  };
}

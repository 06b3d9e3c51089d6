/** Incident analytics and on-call health (queries/analytics.ts). */
import { incidentAnalyticsQuery, onCallAnalyticsQuery } from '../../queries/analytics.js';
import { incidentAnalyticsSchema, onCallAnalyticsSchema } from '../contract/analytics.js';
import { HEAVY_REQUESTS_429, type OperationDoc } from './operation.js';

const tag = 'Analytics';
const csvNote = 'With `Accept: text/csv`, the rows as CSV (RFC 4180, a header row, the same numbers).';

export const analyticsOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/analytics/incidents',
    tag,
    summary: 'Incident analytics over a range, grouped',
    description: `Incidents opened in [since, until) (default: the last 30 days; at most 366), grouped; and the noisiest rules. ${csvNote}`,
    query: incidentAnalyticsQuery.shape,
    problems: { 429: HEAVY_REQUESTS_429 },
    response: {
      kind: 'envelope',
      status: 200,
      description: 'The groups and the noisiest rules',
      data: incidentAnalyticsSchema,
    },
  },
  {
    method: 'get',
    path: '/analytics/oncall',
    tag,
    summary: 'On-call health per person over a range',
    description: `Pages received, pages at night in the person's zone and hours on call (default: the last 30 days; at most 366). People are named; their email is given only to a caller who also holds \`iam:read\`. ${csvNote}`,
    query: onCallAnalyticsQuery.shape,
    problems: { 429: HEAVY_REQUESTS_429 },
    response: {
      kind: 'envelope',
      status: 200,
      description: 'One row per person paged or on call',
      data: onCallAnalyticsSchema,
    },
  },
];

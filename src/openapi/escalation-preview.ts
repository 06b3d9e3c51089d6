/** The escalation preview (queries/escalation-preview.ts, escalation-preview-view.ts). */
import { z } from 'zod';
import { MAX_PREVIEW_CYCLES } from '../process/escalation/escalation-preview.js';
import { escalationPreviewSchema } from '../contract/escalation-preview.js';
import { DELIVERY_CHANNELS } from '../events/escalation-policy.js';
import { HEAVY_REQUESTS_429, type OperationDoc } from './operation.js';
import { escalationPolicyBody } from './schedules.js';
import { instant } from './shared-schemas.js';

const previewQuery = {
  at: instant.meta({ description: 'the trigger instant, ISO 8601 with an offset or `Z` (default now)' }),
  cycles: z
    .number()
    .int()
    .min(1)
    .max(MAX_PREVIEW_CYCLES)
    .meta({
      description: `cycles of a repeating policy to list, 1 to ${MAX_PREVIEW_CYCLES} (default 1; a policy without repeats has one)`,
    }),
};

const description =
  "For an incident triggered at `at`: when each stage fires and whom it reaches, resolved by the escalation manager's own target " +
  "resolution at the stage's fire time (a schedule gives whoever is on call then). Users, groups and channels are read as they are now. " +
  `Nothing is sent and nothing is recorded. Delivery channels of person targets: ${DELIVERY_CHANNELS.join(', ')}.`;

const previewProblems = {
  422: 'The preview would cost more work units than ESCALATION_PREVIEW_WORK_UNITS allows (the detail names the limit and the figure; `work_units`, `limit_value`): ask for fewer cycles or fewer schedule targets',
  429: HEAVY_REQUESTS_429,
};

export const escalationPreviewOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/escalation-policies/:id/preview',
    tag: 'Escalation',
    summary: 'Who gets paged: a saved policy',
    description,
    query: previewQuery,
    problems: previewProblems,
    response: { kind: 'envelope', status: 200, description: 'The preview', data: escalationPreviewSchema },
  },
  {
    method: 'post',
    path: '/escalation-policies/preview',
    tag: 'Escalation',
    summary: 'Who gets paged: an unsaved policy',
    description: `${description} The body is validated as create validates it (400 with the same field errors, unknown targets included).`,
    query: previewQuery,
    body: escalationPolicyBody,
    problems: previewProblems,
    response: { kind: 'envelope', status: 200, description: 'The preview', data: escalationPreviewSchema },
  },
];

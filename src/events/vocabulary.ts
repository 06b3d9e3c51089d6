/**
 * Words shared by several resources' events, defined once: ids, severities, alert conditions,
 * notification channel types and the media a page goes out through. Events, commands, queries,
 * projections, process managers and the notify port all import them from here.
 */
import { z } from 'zod';

import { CHANNEL_TYPES, CONDITIONS, READ_FAILURE_STATES, SEVERITIES } from '../contract/vocabulary.js';

export {
  CHANNEL_TYPES,
  CONDITIONS,
  isUuid,
  NOTIFY_MEDIA,
  READ_FAILURE_STATES,
  SEVERITIES,
  UUID_PATTERN,
} from '../contract/vocabulary.js';
export type {
  ChannelType,
  Condition,
  IncidentSource,
  NotifyMedium,
  ReadFailureState,
  Severity,
} from '../contract/vocabulary.js';

export const severitySchema = z.enum(SEVERITIES);
export const conditionSchema = z.enum(CONDITIONS);
export const readFailureStateSchema = z.enum(READ_FAILURE_STATES);
export const channelTypeSchema = z.enum(CHANNEL_TYPES);

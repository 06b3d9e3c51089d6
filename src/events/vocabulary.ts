/**
 * Words shared by several resources' events, defined once: ids, severities, alert conditions,
 * notification channel types and the media a page goes out through. Events, commands, queries,
 * projections, process managers and the notify port all import them from here.
 */
import { z } from 'zod';

import { CHANNEL_TYPES, CONDITIONS, SEVERITIES } from '../contract/vocabulary.js';

export { CHANNEL_TYPES, CONDITIONS, isUuid, NOTIFY_MEDIA, SEVERITIES, UUID_PATTERN } from '../contract/vocabulary.js';
export type { ChannelType, Condition, NotifyMedium, Severity } from '../contract/vocabulary.js';

export const severitySchema = z.enum(SEVERITIES);
export const conditionSchema = z.enum(CONDITIONS);
export const channelTypeSchema = z.enum(CHANNEL_TYPES);

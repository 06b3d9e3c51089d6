/**
 * Words shared by several resources' events, defined once: ids, severities, alert conditions,
 * notification channel types and the media a page goes out through. Events, commands, queries,
 * projections, process managers and the notify port all import them from here.
 */
import { z } from 'zod';

/** Every stored resource id is a UUID (any version: incident ids are v5, the others v4). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string | undefined): value is string => value !== undefined && UUID_PATTERN.test(value);

/** How bad an alert is (SPEC.md, Alert rule severity); incidents copy it from their rule. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const severitySchema = z.enum(SEVERITIES);

/** How a rule compares its metric with its threshold. */
export const CONDITIONS = ['gt', 'lt', 'gte', 'lte', 'eq'] as const;
export type Condition = (typeof CONDITIONS)[number];
export const conditionSchema = z.enum(CONDITIONS);

/** Notification channel types (SPEC.md, Notification channel). */
export const CHANNEL_TYPES = ['chat', 'email', 'pager', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export const channelTypeSchema = z.enum(CHANNEL_TYPES);

/** What a page goes out through: a channel's type, or sms to a user's phone (users have no sms channel). */
export const NOTIFY_MEDIA = [...CHANNEL_TYPES, 'sms'] as const;
export type NotifyMedium = (typeof NOTIFY_MEDIA)[number];

/**
 * The words the API and the console share, defined once and free of any library, so the server's
 * model (src/events/vocabulary.ts), its ports and the console's bundle (src/dashboard/web) all
 * import the same lists.
 */

/** A UUID of any version, as text (incident ids are v5, the other resources' v4). */
const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Every stored resource id is a UUID: the whole value, any case. */
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`, 'i');
export const isUuid = (value: string | undefined): value is string => value !== undefined && UUID_PATTERN.test(value);
/** Every UUID inside a text (for `String.replace`; a fresh RegExp each call, as global ones keep state). */
export const uuidsInText = () => new RegExp(UUID_SOURCE, 'gi');

/** How bad an alert is (SPEC.md, Alert rule severity); incidents copy it from their rule. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** How a rule compares its metric with its threshold. */
export const CONDITIONS = ['gt', 'lt', 'gte', 'lte', 'eq'] as const;
export type Condition = (typeof CONDITIONS)[number];

/** Notification channel types (SPEC.md, Notification channel). */
export const CHANNEL_TYPES = ['chat', 'email', 'pager', 'webhook'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** What a page goes out through: a channel's type, or sms to a user's phone (users have no sms channel). */
export const NOTIFY_MEDIA = [...CHANNEL_TYPES, 'sms'] as const;
export type NotifyMedium = (typeof NOTIFY_MEDIA)[number];

/** What the pager Events API v2 accepts as a severity; a pager channel maps each alert severity onto one. */
export const PAGER_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type PagerSeverity = (typeof PAGER_SEVERITIES)[number];

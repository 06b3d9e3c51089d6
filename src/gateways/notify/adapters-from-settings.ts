/**
 * The five adapters built from the platform's settings, for the composition root. HTTP media share
 * one guarded client; the operator's own endpoints (the pager events URL, the SMS provider) go
 * through it too, so OUTBOUND_ALLOW_PRIVATE_NETWORKS decides for every outbound request alike.
 */
import { createGuardedClient, type GuardedClientOptions, type GuardedHttpClient } from '../http/guarded-client.js';
import { chatAdapter } from './chat-adapter.js';
import { emailAdapter } from './email-adapter.js';
import type { NotifyAdapters } from './notifier.js';
import { pagerAdapter } from './pager-adapter.js';
import { smsAdapter } from './sms-adapter.js';
import { webhookAdapter } from './webhook-adapter.js';

export interface NotifySettings {
  allowPrivateNetworks: boolean;
  /** DATA_DIR/outbox: email without SMTP_URL, sms without SMS_PROVIDER_URL. */
  outboxDirectory: string;
  /** NOTIFY_EMAIL_FROM. */
  emailFrom: string;
  smtpUrl?: string;
  pagerEventsUrl?: string;
  smsProviderUrl?: string;
  smsProviderToken?: string;
  /** Per attempt, HTTP and SMTP. Default 5000. */
  timeoutMs?: number;
  /** Injected in tests: virtual time and deterministic jitter. */
  clock?: Pick<GuardedClientOptions, 'sleep' | 'now' | 'random'>;
}

export function notifyAdaptersFromSettings(settings: NotifySettings): {
  adapters: NotifyAdapters;
  client: GuardedHttpClient;
} {
  const clock = settings.clock ?? {};
  const client = createGuardedClient({
    allowPrivateNetworks: settings.allowPrivateNetworks,
    timeoutMs: settings.timeoutMs,
    ...clock,
  });
  const adapters: NotifyAdapters = {
    chat: chatAdapter(client),
    email: emailAdapter({
      from: settings.emailFrom,
      smtpUrl: settings.smtpUrl,
      outboxDirectory: settings.outboxDirectory,
      timeoutMs: settings.timeoutMs,
      ...clock,
    }),
    pager: pagerAdapter(client, { eventsUrl: settings.pagerEventsUrl }),
    webhook: webhookAdapter(client, { now: clock.now }),
    sms: smsAdapter({
      client,
      providerUrl: settings.smsProviderUrl,
      providerToken: settings.smsProviderToken,
      outboxDirectory: settings.outboxDirectory,
      now: clock.now,
    }),
  };
  return { adapters, client };
}

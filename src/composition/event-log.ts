/**
 * The event log as the platform uses it: the opened store, measured (metrics), watched for damage
 * (a damaged page of events.db answers 503 and names the restore), refusing nothing silently (the
 * last refused append is kept for /health; so is what the background scrub found), and validating every event against its schema.
 */
import { trackingAppendRefusals, type AppendRefusal } from '../eventstore/append-refusals.js';
import { detectingLogDamage } from '../eventstore/damage-detector.js';
import { instrumentedEventStore } from '../eventstore/instrumented.js';
import type { EventStore } from '../eventstore/port.js';
import { validatingEventStore } from '../eventstore/validating.js';
import type { PlatformMetrics } from '../metrics.js';
import { EVENT_LOG_RECOVERY } from '../sqlite/damaged-file.js';

export interface EventLog {
  eventStore: EventStore;
  /** For /health: throws naming the damage, or the refused appends, or the store's own failure. */
  check(): Promise<void>;
  /** The refusal going on now (appends failing since), for the platform watch. */
  appendRefusal(): AppendRefusal | undefined;
}

/** `scrubFinding`: what the background scrub (composition/log-scrub.ts) found in the log, if anything. */
export function composeEventLog(
  opened: EventStore,
  metrics: PlatformMetrics,
  scrubFinding: () => string | undefined = () => undefined,
): EventLog {
  const logDamage = detectingLogDamage(instrumentedEventStore(opened, metrics));
  const appends = trackingAppendRefusals(logDamage.store);
  const eventStore = validatingEventStore(appends.store);
  return {
    eventStore,
    appendRefusal: appends.refusal,
    async check() {
      // Damage first: it is the cause when appends are refused because of it, and only a restore mends it.
      const damage = logDamage.damage();
      if (damage)
        throw new Error(
          `events.db is damaged (first met ${damage.since.toISOString()}: ${damage.error}); ${EVENT_LOG_RECOVERY}`,
        );
      // Then what the scrub found before anything read it (a damaged page, a broken chain).
      const found = scrubFinding();
      if (found) throw new Error(found);
      const refusal = appends.refusal();
      if (refusal)
        throw new Error(
          `refusing appends since ${refusal.since.toISOString()} (${refusal.refused} refused; the last: ${refusal.error})`,
        );
      await eventStore.ping();
    },
  };
}

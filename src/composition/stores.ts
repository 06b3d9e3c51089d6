/**
 * The stores: EventStoreDB when EVENTSTORE_URL is set, MongoDB when MONGODB_URL is set; SQLite files
 * in DATA_DIR otherwise. The event store seals channel secrets (src/eventstore/encrypting.ts).
 */
import { join } from 'node:path';
import type { Config } from '../config.js';
import { encryptingEventStore } from '../eventstore/encrypting.js';
import type { EventStore } from '../eventstore/port.js';
import { ensurePrivateDirectory } from '../eventstore/private-files.js';
import { openSqliteEventStore } from '../eventstore/sqlite.js';
import { channelEventSecrets } from '../events/channel-secrets.js';
import type { ReadStore } from '../readstore/port.js';
import { openSqliteReadStore } from '../readstore/sqlite.js';
import { loadSecretBox } from '../secrets/key-file.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { EVENT_LOG_RECOVERY, namingDamage } from '../sqlite/damaged-file.js';

export async function openStores(config: Config): Promise<{
  eventStore: EventStore;
  /** The log below the secret box (secret fields as sealed, as the chain hashes them): for the scrub. */
  logStore: EventStore;
  readStore: ReadStore;
  secrets: SecretBox;
}> {
  ensurePrivateDirectory(config.dataDir);
  // The production adapters' clients (gRPC, the MongoDB driver) are loaded only when configured:
  // importing them costs every embedded start (and every test that starts the platform) seconds.
  const logStore = config.eventStoreUrl
    ? (await import('../eventstore/eventstoredb.js')).createEventStoreDbStore(config.eventStoreUrl)
    : namingDamage(join(config.dataDir, 'events.db'), EVENT_LOG_RECOVERY, () =>
        openSqliteEventStore({ filename: join(config.dataDir, 'events.db') }),
      );
  // Channel secrets are sealed in the log; everything above this line sees them plain (rebuilds too).
  const secrets = loadSecretBox(config.secrets, join(config.dataDir, 'secrets.key'));
  const eventStore = encryptingEventStore(logStore, secrets, channelEventSecrets);
  const readStore = config.mongodb
    ? await (await import('../readstore/mongodb.js')).openMongoReadStore(config.mongodb.url, {
        dbName: config.mongodb.database,
      })
    : openSqliteReadStore(join(config.dataDir, 'read-models.db'));
  return { eventStore, logStore, readStore, secrets };
}

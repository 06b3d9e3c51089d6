/**
 * `npm run rebuild [--force] [projection…]`: rebuilds read models from the event log, each into
 * fresh collections that are swapped in at the end, with a progress bar. Without names, all of them.
 *
 * On the embedded stores (EVENTSTORE_URL unset) it first makes sure there is something to rebuild
 * and nobody else using it:
 * - no DATA_DIR/events.db: it refuses (exit 1) rather than open a new, empty log and report a
 *   "successful" rebuild of nothing (usually DATA_DIR points at the wrong place);
 * - a platform holds DATA_DIR (the lock `npm start` takes): it refuses (exit 1), because the
 *   running instance keeps its own in-memory positions and would not see the swapped read models.
 *   `--force` rebuilds anyway (a warning says so). Otherwise the CLI holds the lock itself while it
 *   runs, so a platform started meanwhile refuses to start.
 * Usage errors (unknown projection or option) exit 2.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.js';
import { DataDirLockedError, acquireDataDirLock } from './eventstore/data-dir-lock.js';
import { openStores, projectionsOf } from './platform.js';
import type { Projection } from './projection-runner/projection.js';
import { rebuildProjection } from './projection-runner/rebuild.js';
import { setAsideIfDamaged } from './readstore/set-aside-damaged.js';

class Refusal extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

function bar(done: bigint, total: bigint, width = 30) {
  const ratio = total <= 0n ? 1 : Math.min(1, Number(done) / Number(total));
  const filled = Math.round(ratio * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}%`;
}

function parseArguments(args: string[]) {
  const options = args.filter((arg) => arg.startsWith('--'));
  const names = args.filter((arg) => !arg.startsWith('--'));
  const unknownOption = options.find((option) => option !== '--force');
  if (unknownOption)
    throw new Refusal(`unknown option ${unknownOption}; usage: npm run rebuild [--force] [projection…]`, 2);
  return { force: options.includes('--force'), names };
}

/** The named projections (all when none is named); the channels projection seals with the store's box. */
function selectProjections(names: string[], projections: Projection[]): Projection[] {
  const unknown = names.filter((name) => !projections.some((p) => p.name === name));
  if (unknown.length > 0)
    throw new Refusal(
      `unknown projection ${unknown.join(', ')}; known: ${projections.map((p) => p.name).join(', ')}`,
      2,
    );
  return names.length > 0 ? projections.filter((p) => names.includes(p.name)) : projections;
}

/** The embedded store's preconditions; returns the lock's release (nothing when forced past it). */
function claimEmbeddedStore(config: Config, force: boolean): (() => void) | undefined {
  const log = join(config.dataDir, 'events.db');
  if (!existsSync(log)) throw new Refusal(`no event store at ${log}: nothing to rebuild from (is DATA_DIR right?)`, 1);
  try {
    return acquireDataDirLock(config.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    if (!force)
      throw new Refusal(
        `${error.message}\nStop the platform before rebuilding, or pass --force to rebuild while it runs.`,
        1,
      );
    console.error(
      `--force: rebuilding while ${error.holderPid === undefined ? 'another process' : `pid ${error.holderPid}`} holds ${error.dir}; restart it afterwards so it reads the rebuilt read models.`,
    );
    return undefined;
  }
}

async function main() {
  const config = loadConfig();
  const { force, names } = parseArguments(process.argv.slice(2));
  const release = config.eventStoreUrl ? undefined : claimEmbeddedStore(config, force);
  try {
    const setAside = config.mongodb ? undefined : setAsideIfDamaged(join(config.dataDir, 'read-models.db'));
    if (setAside) {
      console.error(
        `${join(config.dataDir, 'read-models.db')} is damaged (${setAside.damage}): set aside as ${setAside.aside}; rebuilding every read model from the log`,
      );
    }
    const { eventStore, readStore, secrets } = await openStores(config);
    try {
      // A fresh file holds no read model: every one is rebuilt, whichever were named.
      for (const projection of selectProjections(setAside ? [] : names, projectionsOf(secrets))) {
        for (const [collection, indexes] of Object.entries(projection.collections))
          await readStore.ensureIndexes(collection, indexes);
        const started = Date.now();
        let applied = 0;
        const position = await rebuildProjection({ eventStore, readStore }, projection, {
          onProgress: (progress) => {
            applied = progress.applied;
            if (process.stdout.isTTY)
              process.stdout.write(
                `\r${projection.name.padEnd(24)} ${bar(progress.position, progress.head)} ${progress.applied} events`,
              );
          },
        });
        if (process.stdout.isTTY) process.stdout.write('\r');
        console.log(
          `${projection.name.padEnd(24)} ${bar(1n, 1n)} ${applied} events applied, up to position ${position}, in ${Date.now() - started} ms`,
        );
      }
    } finally {
      await eventStore.close();
      await readStore.close();
    }
  } finally {
    release?.();
  }
}

main().catch((error) => {
  if (error instanceof Refusal) {
    console.error(error.message);
    process.exit(error.exitCode);
  }
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

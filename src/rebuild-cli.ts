/**
 * `npm run rebuild [projection…]`: rebuilds read models from the event log, each into fresh
 * collections that are swapped in at the end, with a progress bar. Without names, all of them.
 * Run it while the platform is stopped (a running instance keeps its own in-memory positions).
 */
import { ConfigError, loadConfig } from './config.js';
import { openStores, projectionsOf } from './platform.js';
import { rebuildProjection } from './projection/rebuild.js';

function bar(done: bigint, total: bigint, width = 30) {
  const ratio = total <= 0n ? 1 : Math.min(1, Number(done) / Number(total));
  const filled = Math.round(ratio * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}%`;
}

async function main() {
  const config = loadConfig();
  const names = process.argv.slice(2);
  const { eventStore, readStore, secrets } = await openStores(config);
  const projections = projectionsOf(secrets);
  const unknown = names.filter((name) => !projections.some((p) => p.name === name));
  if (unknown.length > 0) {
    console.error(`unknown projection ${unknown.join(', ')}; known: ${projections.map((p) => p.name).join(', ')}`);
    await Promise.all([eventStore.close(), readStore.close()]);
    process.exit(2);
  }
  const selected = names.length > 0 ? projections.filter((p) => names.includes(p.name)) : projections;
  try {
    for (const projection of selected) {
      for (const [collection, indexes] of Object.entries(projection.collections)) await readStore.ensureIndexes(collection, indexes);
      const started = Date.now();
      let applied = 0;
      const position = await rebuildProjection({ eventStore, readStore }, projection, (progress) => {
        applied = progress.applied;
        if (process.stdout.isTTY) process.stdout.write(`\r${projection.name.padEnd(24)} ${bar(progress.position, progress.head)} ${progress.applied} events`);
      });
      if (process.stdout.isTTY) process.stdout.write('\r');
      console.log(`${projection.name.padEnd(24)} ${bar(1n, 1n)} ${applied} events applied, up to position ${position}, in ${Date.now() - started} ms`);
    }
  } finally {
    await eventStore.close();
    await readStore.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

/**
 * A child process that takes the data-directory lock of argv[2], says "locked" and holds it until
 * it is killed (the lock tests kill it with SIGKILL, as a crash would).
 */
import { acquireDataDirLock } from '../../src/eventstore/data-dir-lock.js';

acquireDataDirLock(process.argv[2]!);
process.stdout.write('locked\n');
setInterval(() => {}, 60_000);

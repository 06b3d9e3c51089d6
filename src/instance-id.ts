/**
 * This instance's name, stable across restarts: kept in DATA_DIR/instance-id. Work an instance
 * records as in progress (a sync run) carries it, so after a crash the restarted process knows
 * which unfinished work was its own, and leaves another live instance's work alone. DATA_DIR is
 * locked to one process (data-dir-lock), so two live processes never share a name.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export function loadOrCreateInstanceId(dataDir: string): string {
  const file = join(dataDir, 'instance-id');
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (NAME.test(stored)) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const host =
    hostname()
      .replace(/[^A-Za-z0-9.-]/g, '')
      .slice(0, 60) || 'host';
  const created = `${host}-${randomBytes(4).toString('hex')}`;
  writeFileSync(file, `${created}\n`, { mode: 0o600 });
  return created;
}

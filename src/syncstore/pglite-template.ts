/**
 * A freshly initialised embedded PostgreSQL cluster kept as a tarball, so a new database loads it
 * instead of running initdb. initdb in WebAssembly costs about 4 s of CPU in a new process (1.4 s
 * once the module is compiled); loading the tarball 0.4–0.7 s. A fresh DATA_DIR pays initdb once,
 * so production has no use for this; the test suite opens hundreds of fresh databases and does.
 *
 * The tarball is named by the PGlite version, so an upgrade never loads another version's cluster;
 * it is written to a temporary name and renamed, so concurrent first users never read half a file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/** The installed PGlite's version (its package exports no package.json, so read the file beside its build), once. */
let installedVersion: string | undefined;
const pgliteVersion = (): string => {
  if (installedVersion === undefined) {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    installedVersion = (
      JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }
    ).version;
  }
  return installedVersion;
};

export const templateFile = (directory: string): string => join(directory, `pglite-${pgliteVersion()}-fresh.tar`);

/** The directory already holds a cluster (PGlite refuses to load a tarball over one). */
export const holdsCluster = (dataDir: string | undefined): boolean =>
  dataDir !== undefined && existsSync(join(dataDir, 'PG_VERSION'));

/** Tarballs read in this process, by file: a test file opens a dozen databases from the same 40 MB. */
const readTarballs = new Map<string, Blob>();

/** The kept tarball, or undefined when none was made yet (or it cannot be read). */
export function readTemplate(directory: string): Blob | undefined {
  const file = templateFile(directory);
  const known = readTarballs.get(file);
  if (known) return known;
  try {
    const tarball = new Blob([readFileSync(file)]);
    readTarballs.set(file, tarball);
    return tarball;
  } catch {
    return undefined;
  }
}

/**
 * Keeps `db`'s cluster as the template. Call it straight after initdb, before anything is created
 * in it. A failure to write is ignored: the template only saves time.
 */
export async function keepTemplate(directory: string, db: PGlite): Promise<void> {
  const file = templateFile(directory);
  if (existsSync(file)) return;
  try {
    const tarball = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    mkdirSync(directory, { recursive: true });
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    writeFileSync(partial, tarball, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // Read-only or full disk: the next open runs initdb again, which is all this would have saved.
  }
}

/** Removes a template that would not load, so the next open makes a new one. */
export function forgetTemplate(directory: string): void {
  readTarballs.delete(templateFile(directory));
  rmSync(templateFile(directory), { force: true });
}

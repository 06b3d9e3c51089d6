/**
 * The bound on every SQLite connection's page cache, the platform's main native memory.
 *
 * A connection's cache keeps every page it reads or writes until it holds `cache_size`: the writers
 * of the event log and of the read models keep each page they append, so their caches grow as fast
 * as the files do (about 1.7 MB/min under the soak's 100 requests/s) until they reach the bound.
 * At 64 MiB each (as before) that took hours, and the process's memory outside the V8 heap rose
 * by that much all along: issue 39's soak, bench/README.md "Soak". A reader's cache is emptied
 * whenever another connection commits (WAL), so it stays small under writes whatever its bound.
 *
 * 8 MiB fills within a few minutes of steady writes and then stays; what it no longer keeps is
 * read again from the kernel's page cache (a copy of 4 KiB, microseconds), small next to the
 * fsync of each group commit. With 10 connections that is 80 MiB at most.
 */
export const PAGE_CACHE_KIB = 8 * 1024;

/** The pragma that applies the bound (negative: KiB, not pages). */
export const PAGE_CACHE_PRAGMA = `cache_size = -${PAGE_CACHE_KIB}`;

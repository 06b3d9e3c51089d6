/**
 * A long read in pages: every document a filter matches, read `pageSize` at a time in the order of
 * `field` (ascending, ties by id; by id alone when none is given), each page after waiting its turn of the caller's time slice (src/time-slice.ts). The embedded
 * read store reads and parses on the main thread: a hundred large schedules in one read held it
 * for 60–200 ms. A document written between pages may be missed or seen; callers that need one
 * snapshot read in one go.
 */
import type { Pause } from '../time-slice.js';
import type { After, Doc, Filter, ReadModelReader } from './port.js';

export async function findInPages<T extends Doc>(
  reader: ReadModelReader,
  collection: string,
  filter: Filter,
  pageSize: number,
  pause: Pause,
  field?: string,
): Promise<T[]> {
  const sort = field === undefined ? [] : [[field, 'asc'] as const];
  const found: T[] = [];
  let after: After | undefined;
  for (;;) {
    await pause();
    const page = await reader.find<T>(
      collection,
      filter,
      after ? { sort, limit: pageSize, after } : { sort, limit: pageSize },
    );
    found.push(...page);
    if (page.length < pageSize) return found;
    const last = page[page.length - 1]!;
    after = { values: field === undefined ? [] : [last[field] as string], id: last.id };
  }
}

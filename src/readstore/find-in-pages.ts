/**
 * A long read in pages: every document a filter matches, read `pageSize` at a time in id order,
 * each page after waiting its turn of the caller's time slice (src/time-slice.ts). The embedded
 * read store reads and parses on the main thread: a hundred large schedules in one read held it
 * for 60–200 ms. A document written between pages may be missed or seen; callers that need one
 * snapshot read in one go.
 */
import type { Pause } from '../time-slice.js';
import type { After, Doc, Filter, ReadModelReader } from './port.js';

export async function findInPages<T extends Doc>(reader: ReadModelReader, collection: string, filter: Filter, pageSize: number, pause: Pause): Promise<T[]> {
  const found: T[] = [];
  let after: After | undefined;
  for (;;) {
    await pause();
    const page = await reader.find<T>(collection, filter, after ? { limit: pageSize, after } : { limit: pageSize });
    found.push(...page);
    if (page.length < pageSize) return found;
    after = { values: [], id: page[page.length - 1]!.id };
  }
}

/**
 * Every item of a paged list, following `page.next_cursor` (the envelope's paging): the People pages
 * show whole lists (a tenant's users, roles, groups), so a name is never missing past the first page.
 */
/** The one call this needs of the API client (client.ts), so this file stands alone. */
interface Reader {
  get<T>(path: string, shape: 'bare'): Promise<T>;
}

export async function everyPage<T>(api: Reader, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const answer: { data: T[]; page?: { next_cursor: string | null } } = await api.get(
      `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      'bare',
    );
    items.push(...answer.data);
    cursor = answer.page?.next_cursor ?? null;
  } while (cursor);
  return items;
}

/**
 * RFC 6901 JSON Pointer evaluation: `""` is the whole document, each `/token` steps into an object
 * member or an array index (`~1` is `/`, `~0` is `~`, decoded in that order). Own members only, so
 * `/constructor` finds nothing an object inherits. undefined: the pointer names nothing.
 */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let at: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(at)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      at = at[Number(token)];
    } else if (at !== null && typeof at === 'object' && Object.hasOwn(at, token)) {
      at = (at as Record<string, unknown>)[token];
    } else return undefined;
  }
  return at;
}

/**
 * Counted slots per key (a tenant, or one key for "everyone"): taking one past the limit throws
 * what `refuse` builds; the returned function gives the slot back, once. The stream caps and the
 * heavy-request caps are both made of these.
 */
export function createKeyedSlots(limit: number, refuse: () => Error) {
  const taken = new Map<string, number>();
  return {
    take(key: string): () => void {
      const count = taken.get(key) ?? 0;
      if (count >= limit) throw refuse();
      taken.set(key, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (taken.get(key) ?? 1) - 1;
        if (left > 0) taken.set(key, left);
        else taken.delete(key);
      };
    },
    /** Slots taken now under `key`. */
    inUse: (key: string) => taken.get(key) ?? 0,
  };
}

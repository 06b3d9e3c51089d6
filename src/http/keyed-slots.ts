/**
 * Counted slots per key (a tenant, or one key for everyone): a take beyond `limit` throws what
 * `refuse` builds and takes nothing; the function a take returns gives its slot back once, however
 * often it is called. The heavy-request caps (heavy-request-slots.ts) are made of it.
 */
export interface KeyedSlots {
  /** Takes a slot under `key` (or throws the refusal); the returned function gives it back, once. */
  take(key: string): () => void;
  /** Slots taken now under `key`. */
  inUse(key: string): number;
}

export function createKeyedSlots(limit: number, refuse: () => Error): KeyedSlots {
  const taken = new Map<string, number>();
  return {
    take(key) {
      const count = taken.get(key) ?? 0;
      if (count >= limit) throw refuse();
      taken.set(key, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // A key with no slot taken is forgotten, so the map holds only keys in use.
        const left = (taken.get(key) ?? 1) - 1;
        if (left > 0) taken.set(key, left);
        else taken.delete(key);
      };
    },
    inUse: (key) => taken.get(key) ?? 0,
  };
}

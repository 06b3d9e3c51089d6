/**
 * Deterministic randomness for the simulator: every draw is a pure function of a seed built from
 * the env id, the cluster and a time bucket, so the same (env, time) always yields the same
 * warehouse and tests can assert exact figures.
 */

/** 32-bit FNV-1a over the UTF-16 code units of the text. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A seed from any mix of labels and numbers, e.g. seedOf(clusterId, 'slot', 28512345). */
export function seedOf(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) hash = fnv1a(`${part}\u001f`, hash);
  return hash;
}

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** Uniform whole number in [min, max]. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by relative weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** Log-normal around a median: most draws near it, a long right tail (how runtimes behave). */
  logNormal(median: number, spread: number): number;
}

/** A Weyl sequence passed through a 32-bit avalanche mix: fast, well spread, and seedable. */
export function randomFrom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 0x1_0000_0000;
  };
  const random: Random = {
    next,
    between: (min, max) => min + next() * (max - min),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick(items) {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new RangeError('cannot pick from an empty list');
      return item;
    },
    weighted(items) {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      const last = items[items.length - 1];
      if (last === undefined) throw new RangeError('cannot pick from an empty list');
      return last[0];
    },
    logNormal(median, spread) {
      // Box-Muller; 1 - next() keeps the logarithm away from 0.
      const gaussian = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
      return median * Math.exp(spread * gaussian);
    },
  };
  return random;
}

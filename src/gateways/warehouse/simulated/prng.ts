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
  return extendSeed(0x811c9dc5, ...parts);
}

/** extendSeed(seedOf(a, b), c) === seedOf(a, b, c): hot loops hash their fixed prefix once. */
export function extendSeed(seed: number, ...parts: (string | number)[]): number {
  let hash = seed;
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

/**
 * A Weyl sequence passed through a 32-bit avalanche mix: fast, well spread, and seedable.
 * A class rather than closures: the simulator creates one per time slot, thousands per read.
 */
class SeededRandom implements Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 0x1_0000_0000;
  }

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('cannot pick from an empty list');
    return item;
  }

  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of items) total += weight;
    let roll = this.next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    const last = items[items.length - 1];
    if (last === undefined) throw new RangeError('cannot pick from an empty list');
    return last[0];
  }

  logNormal(median: number, spread: number): number {
    // Box-Muller; 1 - next() keeps the logarithm away from 0.
    const gaussian = Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next());
    return median * Math.exp(spread * gaussian);
  }
}

export const randomFrom = (seed: number): Random => new SeededRandom(seed);

/**
 * A small seeded PRNG (sfc32, seeded through splitmix32 from a string) so that generated data is the same
 * bytes for the same seed on every machine. Not for cryptography.
 */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** One element, by weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** Lower-case hex string of n characters. */
  hex(n: number): string;
  /** An independent generator for a named sub-stream, so adding draws in one place does not shift another. */
  fork(label: string): Rng;
}

function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * @example
 * const rng = createRng('seed-1');
 * rng.int(1, 6); // the same number every time for 'seed-1'
 */
export function createRng(seed: string): Rng {
  const init = splitmix32(hashString(seed));
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const nextU32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) nextU32();

  const rng: Rng = {
    next: () => nextU32() / 0x1_0000_0000,
    int: (min, max) => min + Math.floor(rng.next() * (max - min + 1)),
    chance: (p) => rng.next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[rng.int(0, items.length - 1)] as (typeof items)[number];
    },
    weighted: (items) => {
      const total = items.reduce((sum, [, w]) => sum + w, 0);
      let roll = rng.next() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      return (items[items.length - 1] as (typeof items)[number])[0];
    },
    hex: (n) => {
      let out = '';
      while (out.length < n) out += nextU32().toString(16).padStart(8, '0');
      return out.slice(0, n);
    },
    fork: (label) => createRng(`${seed}/${label}`),
  };
  return rng;
}

/** A number in [0, 1) that depends only on `text`: for values that must not depend on the order of draws. */
export function hashUnit(text: string): number {
  return splitmix32(hashString(text))() / 2 ** 32;
}

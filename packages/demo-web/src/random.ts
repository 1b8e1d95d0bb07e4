// Deterministic pseudo-random numbers, so every start of the web serves the same bytes.

/** A PRNG (mulberry32) returning floats in [0, 1). */
export type Random = () => number;

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max]. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError('pick: no items');
  return item;
}

const WORDS = (
  'polite crawler robots rules host delay request server page link sitemap feed archive garden kitchen ' +
  'market river harbour lantern meadow copper signal quiet morning letter window bridge orchard canvas ' +
  'thread pattern season harvest compass ledger village station engine record folder network module ' +
  'careful steady gentle modest honest simple local shared patient useful clear bright'
).split(' ');

/** A sentence of 8–16 words, capitalised, with a full stop. */
export function sentence(random: Random): string {
  const words = Array.from({ length: randomInt(random, 8, 16) }, () => pick(random, WORDS));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

/** A paragraph of 3–6 sentences. */
export function paragraph(random: Random): string {
  return Array.from({ length: randomInt(random, 3, 6) }, () => sentence(random)).join(' ');
}

/** A stable 32-bit hash of a string (FNV-1a), to seed per-page randomness. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Seeded pseudo-random numbers. RAPTOR and community detection must give the same result for the same
 * `random_seed` (API.md §19.11), so every random draw — UMAP's included — comes from here, never from
 * Math.random.
 */

/** mulberry32: a small, fast 32-bit generator with good statistical quality for sampling. */
export function seededRandom(seed: number): () => number {
  let a = (Math.floor(Math.abs(seed)) % 4294967296) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller) from a uniform generator. */
export function gaussian(random: () => number): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

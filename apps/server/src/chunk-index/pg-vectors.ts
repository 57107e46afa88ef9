/**
 * Vectors as pgvector text: unit-normalized and rounded to float32 exactly as the SQLite index stores
 * them (search/sqlite-schema.ts `vectorBlob`), so cosines agree between the engines. A float32 printed
 * with JavaScript's shortest round-trip form parses back to the same float32.
 */
export function vectorText(v: number[]): string {
  let n = 0;
  for (const x of v) {
    if (!Number.isFinite(x)) throw new Error('vector contains a non-finite number');
    n += x * x;
  }
  const norm = Math.sqrt(n) || 1;
  const f = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) f[i] = v[i] / norm;
  return `[${f.join(',')}]`;
}

/** pgvector text → numbers. */
export function parseVector(text: string): number[] {
  const inner = text.trim().slice(1, -1);
  return inner ? inner.split(',').map((x) => Math.fround(Number(x))) : [];
}

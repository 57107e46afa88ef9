/**
 * Vectors for pgvector, unit-normalized and rounded to float32 exactly as the SQLite index stores them
 * (sqlite-schema.ts `vectorBlob`), so cosines agree between the engines.
 * - Bulk writes send a batch's vectors as one binary float4[] parameter (PostgreSQL's array wire format),
 *   sliced per row in SQL and cast to `vector`: printing 384 floats as text per chunk cost more than
 *   the rest of preparing the row.
 * - A query vector goes as text: a float32 printed in JavaScript's shortest round-trip form parses back
 *   to the same float32.
 */
export function unitVector(v: number[]): Float32Array {
  let n = 0;
  for (const x of v) {
    if (!Number.isFinite(x)) throw new Error('vector contains a non-finite number');
    n += x * x;
  }
  const norm = Math.sqrt(n) || 1;
  const f = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) f[i] = v[i] / norm;
  return f;
}

export function vectorText(v: number[]): string {
  return `[${unitVector(v).join(',')}]`;
}

/** PostgreSQL's binary format of a one-dimensional float4[] holding the vectors one after another. */
export function float4ArrayParam(vectors: Float32Array[]): Buffer {
  const n = vectors.reduce((s, v) => s + v.length, 0);
  const buf = Buffer.allocUnsafe(20 + n * 8);
  buf.writeInt32BE(1, 0); // dimensions
  buf.writeInt32BE(0, 4); // no nulls
  buf.writeUInt32BE(700, 8); // element type: float4
  buf.writeInt32BE(n, 12); // length
  buf.writeInt32BE(1, 16); // lower bound
  let o = 20;
  for (const v of vectors) {
    for (let i = 0; i < v.length; i++) {
      buf.writeInt32BE(4, o);
      buf.writeFloatBE(v[i], o + 4);
      o += 8;
    }
  }
  return buf;
}

/** pgvector text → numbers (float32 values, as the SQLite index returns them). */
export function parseVector(text: string): number[] {
  const inner = text.trim().slice(1, -1);
  return inner ? inner.split(',').map((x) => Math.fround(Number(x))) : [];
}

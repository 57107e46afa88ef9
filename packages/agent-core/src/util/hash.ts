/**
 * `int(sha1(text).hexdigest(), 16) % mod` — RAGFlow's `hash_str2int`, used for the `ID:` a chunk gets
 * in prompt text and as its key in the reference bucket (AGENTS.md §7.2), so `[ID:n]` in an answer
 * finds the chunk. A small synchronous SHA-1 (FIPS 180-4): Web Crypto's async digest cost more than
 * the rest of a retrieval step, and node:crypto would tie the package to Node.
 */
function sha1(bytes: Uint8Array): Uint8Array {
  const ml = bytes.length * 8;
  const padded = new Uint8Array((((bytes.length + 8) >> 6) + 1) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(ml / 2 ** 32));
  view.setUint32(padded.length - 4, ml >>> 0);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const w = new Uint32Array(80);
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16];
      w[i] = (x << 1) | (x >>> 31);
    }
    let [a, b, c, d, e] = [h0, h1, h2, h3, h4];
    for (let i = 0; i < 80; i++) {
      let f: number;
      let k: number;
      if (i < 20) [f, k] = [(b & c) | (~b & d), 0x5a827999];
      else if (i < 40) [f, k] = [b ^ c ^ d, 0x6ed9eba1];
      else if (i < 60) [f, k] = [(b & c) | (b & d) | (c & d), 0x8f1bbcdc];
      else [f, k] = [b ^ c ^ d, 0xca62c1d6];
      const t = (((a << 5) | (a >>> 27)) + f + e + k + w[i]) >>> 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) >>> 0;
    h1 = (h1 + b) >>> 0;
    h2 = (h2 + c) >>> 0;
    h3 = (h3 + d) >>> 0;
    h4 = (h4 + e) >>> 0;
  }
  const out = new Uint8Array(20);
  const ov = new DataView(out.buffer);
  [h0, h1, h2, h3, h4].forEach((h, i) => ov.setUint32(i * 4, h));
  return out;
}

export function sha1Hex(text: string): string {
  return Array.from(sha1(new TextEncoder().encode(text)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const keys = new Map<string, number>();

export function hashToInt(text: string, mod: number): number {
  const cacheKey = `${mod}:${text}`;
  const hit = keys.get(cacheKey);
  if (hit !== undefined) return hit;
  let n = 0;
  for (const byte of sha1(new TextEncoder().encode(text))) n = (n * 256 + byte) % mod;
  if (keys.size > 10_000) keys.clear();
  keys.set(cacheKey, n);
  return n;
}

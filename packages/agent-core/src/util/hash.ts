/**
 * `int(sha1(text).hexdigest(), 16) % mod` — RAGFlow's `hash_str2int`, used for the `ID:` a chunk gets
 * in prompt text and as its key in the reference bucket (AGENTS.md §7.2), so `[ID:n]` in an answer
 * finds the chunk. Web Crypto is used so the package stays free of Node-only imports.
 */
export async function hashToInt(text: string, mod: number): Promise<number> {
  const digest = await globalThis.crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  let n = 0n;
  for (const byte of new Uint8Array(digest)) n = (n << 8n) | BigInt(byte);
  return Number(n % BigInt(mod));
}

import crypto from 'node:crypto';

/**
 * Symmetric helpers keyed by the server secret: HMAC for lookups and signatures,
 * AES-256-GCM for secrets we must be able to show again (provider credentials). API keys and beta
 * tokens are never shown again: only their HMAC (`mac`) and a `tokenHint` are stored.
 */
export class Secrets {
  private readonly encKey: Buffer;
  private readonly macKey: Buffer;

  constructor(secretKey: string) {
    this.encKey = crypto.createHash('sha256').update(`enc:${secretKey}`).digest();
    this.macKey = crypto.createHash('sha256').update(`mac:${secretKey}`).digest();
  }

  mac(value: string): string {
    return crypto.createHmac('sha256', this.macKey).update(value).digest('hex');
  }

  encrypt(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.encKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  decrypt(sealed: string): string {
    if (!sealed.startsWith('v1:')) throw new Error('Unknown secret format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.encKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** The signed header token wrapping a session secret: "<secret>.<signature>" (base64url). */
  signSessionToken(accessToken: string): string {
    const sig = crypto.createHmac('sha256', this.macKey).update(`session:${accessToken}`).digest('base64url');
    return `${Buffer.from(accessToken).toString('base64url')}.${sig}`;
  }

  /** Returns the wrapped secret when the signature holds, else null. */
  openSessionToken(token: string): string | null {
    const [payload, sig] = token.split('.');
    if (!payload || !sig) return null;
    const accessToken = Buffer.from(payload, 'base64url').toString('utf8');
    const expected = crypto
      .createHmac('sha256', this.macKey)
      .update(`session:${accessToken}`)
      .digest('base64url');
    const a = Buffer.from(sig);
    const b = Buffer.from(expected);
    if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) return null;
    return accessToken.length >= 32 ? accessToken : null;
  }
}

export function randomHex(bytes = 16): string {
  return crypto.randomBytes(bytes).toString('hex');
}

/** API key format of API.md §11: "lectern-" + 43 URL-safe characters. */
export function newApiKey(): string {
  return `lectern-${crypto.randomBytes(32).toString('base64url')}`;
}

/** Beta token (share/embed pages): 32 URL-safe characters. */
export function newBetaToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/**
 * How a stored secret is shown (tavily key, provider keys): enough to recognise it, never enough to
 * use it. A client that sends the mask back unchanged means "keep the stored value".
 */
export function maskSecret(value: string | null | undefined): string {
  if (!value) return '';
  if (value.length <= 12) return '****';
  return `${value.slice(0, 4)}…${value.slice(-4)}`;
}

/**
 * The display hint kept for an API key or beta token instead of the token (shown once, at creation):
 * "lectern-" and 4 characters, "****", the last 4 ("lectern-AbCd****wXyZ"), or 4 + "****" + 4 for a
 * beta token. Enough to tell keys apart in a list and to name one in a delete, never enough to use
 * it. ASCII only, so the hint travels in a URL path or a header as it is shown.
 */
export function tokenHint(token: string): string {
  const head = token.startsWith('lectern-') ? 'lectern-'.length + 4 : 4;
  if (token.length <= head + 4) return '****';
  return `${token.slice(0, head)}****${token.slice(-4)}`;
}

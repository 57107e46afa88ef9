/** Cell values and the pinned address shared by the ExeSQL drivers. */
import { checkHost, type OutboundPolicy } from '../../net/index.js';

/** Dates as `YYYY-MM-DD` (with the time when it is not midnight), NaN/±∞ as null, big integers as numbers when exact. */
export function cellValue(v: unknown): unknown {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return null;
    const iso = v.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return v;
}

export function cleanRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = cellValue(v);
  return out;
}

/** The host checked by the outbound guard; the connection goes to the checked address. */
export async function pinnedAddress(policy: OutboundPolicy, host: string): Promise<string> {
  const target = await checkHost(policy, host);
  return target.addresses[0].address;
}

/** Times are epoch milliseconds; the contract also shows RFC 1123 date strings (API.md §1.8). */
export function nowMs(): number {
  return Date.now();
}

export function rfc1123(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  return new Date(ms).toUTCString();
}

/** "YYYY-MM-DD HH:MM:SS" in UTC, used by a few fields of the contract. */
export function sqlDateTime(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The four time columns every new row carries. */
export function creationStamps(ms = nowMs()) {
  const date = sqlDateTime(ms) as string;
  return { create_time: ms, create_date: date, update_time: ms, update_date: date };
}

export function updateStamps(ms = nowMs()) {
  return { update_time: ms, update_date: sqlDateTime(ms) as string };
}

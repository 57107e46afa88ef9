import { DEFAULT_TIMEZONE } from '@lectern/shared';

/**
 * Time zones offered on the profile, in the server's stored form `"UTC±h\tArea/City"` (API.md §2; the
 * default is `"UTC+8\tAsia/Shanghai"`). Offsets are standard time.
 */
export const TIMEZONES: readonly string[] = [
  'UTC-12\tEtc/GMT+12',
  'UTC-11\tPacific/Pago_Pago',
  'UTC-10\tPacific/Honolulu',
  'UTC-9\tAmerica/Anchorage',
  'UTC-8\tAmerica/Los_Angeles',
  'UTC-7\tAmerica/Denver',
  'UTC-6\tAmerica/Chicago',
  'UTC-6\tAmerica/Mexico_City',
  'UTC-5\tAmerica/New_York',
  'UTC-5\tAmerica/Bogota',
  'UTC-4\tAmerica/Halifax',
  'UTC-4\tAmerica/Caracas',
  'UTC-3\tAmerica/Sao_Paulo',
  'UTC-3\tAmerica/Argentina/Buenos_Aires',
  'UTC-2\tAtlantic/South_Georgia',
  'UTC-1\tAtlantic/Azores',
  'UTC+0\tEurope/London',
  'UTC+0\tUTC',
  'UTC+1\tEurope/Berlin',
  'UTC+1\tEurope/Paris',
  'UTC+1\tEurope/Madrid',
  'UTC+1\tAfrica/Lagos',
  'UTC+2\tEurope/Athens',
  'UTC+2\tAfrica/Cairo',
  'UTC+2\tAfrica/Johannesburg',
  'UTC+3\tEurope/Moscow',
  'UTC+3\tAsia/Riyadh',
  'UTC+3\tAfrica/Nairobi',
  'UTC+3.5\tAsia/Tehran',
  'UTC+4\tAsia/Dubai',
  'UTC+4.5\tAsia/Kabul',
  'UTC+5\tAsia/Karachi',
  'UTC+5.5\tAsia/Kolkata',
  'UTC+5.75\tAsia/Kathmandu',
  'UTC+6\tAsia/Dhaka',
  'UTC+6.5\tAsia/Yangon',
  'UTC+7\tAsia/Bangkok',
  'UTC+7\tAsia/Ho_Chi_Minh',
  'UTC+7\tAsia/Jakarta',
  'UTC+8\tAsia/Shanghai',
  'UTC+8\tAsia/Hong_Kong',
  'UTC+8\tAsia/Taipei',
  'UTC+8\tAsia/Singapore',
  'UTC+8\tAustralia/Perth',
  'UTC+9\tAsia/Tokyo',
  'UTC+9\tAsia/Seoul',
  'UTC+9.5\tAustralia/Adelaide',
  'UTC+10\tAustralia/Sydney',
  'UTC+10\tPacific/Guam',
  'UTC+11\tPacific/Noumea',
  'UTC+12\tPacific/Auckland',
  'UTC+12\tPacific/Fiji',
  'UTC+13\tPacific/Tongatapu',
  'UTC+14\tPacific/Kiritimati',
];

/** Select options; a stored value outside the list is kept as the first option so it is never lost. */
export function timezoneOptions(current: string | undefined): Array<{ value: string; label: string }> {
  const values = current && !TIMEZONES.includes(current) ? [current, ...TIMEZONES] : [...TIMEZONES];
  return values.map((value) => ({ value, label: value.replace('\t', '  ·  ') }));
}

/** The zone's standard-time offset in hours (the smaller of January's and July's), or null. */
function standardOffsetHours(zone: string, year: number): number | null {
  const offsetAt = (month: number): number | null => {
    try {
      const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
        .formatToParts(new Date(Date.UTC(year, month, 1)))
        .find((p) => p.type === 'timeZoneName')?.value;
      if (part === 'GMT') return 0;
      const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(part ?? '');
      if (!m) return null;
      return (m[1] === '-' ? -1 : 1) * (Number(m[2]) + Number(m[3]) / 60);
    } catch {
      return null; // an unknown zone name
    }
  };
  const [jan, jul] = [offsetAt(0), offsetAt(6)];
  return jan === null || jul === null ? null : Math.min(jan, jul);
}

/**
 * The entry of TIMEZONES for the browser's zone (a new account starts with it instead of the server
 * default): the same city, else the first entry with the same standard offset, else null.
 */
export function browserTimezone(
  zone: string = Intl.DateTimeFormat().resolvedOptions().timeZone,
  year: number = new Date().getFullYear(),
): string | null {
  const same = TIMEZONES.find((z) => z.split('\t')[1] === zone);
  if (same) return same;
  const hours = standardOffsetHours(zone, year);
  if (hours === null) return null;
  const label = `UTC${hours < 0 ? '-' : '+'}${Math.abs(hours)}`;
  return TIMEZONES.find((z) => z.split('\t')[0] === label) ?? null;
}

export { DEFAULT_TIMEZONE };

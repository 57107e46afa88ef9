import { describe, expect, it } from 'vitest';
import { browserTimezone, TIMEZONES } from './timezones';

describe('browserTimezone', () => {
  it('picks the same city when the list has it', () => {
    expect(browserTimezone('Europe/Berlin', 2026)).toBe('UTC+1\tEurope/Berlin');
    expect(browserTimezone('America/New_York', 2026)).toBe('UTC-5\tAmerica/New_York');
  });

  it('else the first entry with the same standard offset (summer time ignored)', () => {
    expect(browserTimezone('Europe/Vienna', 2026)).toBe('UTC+1\tEurope/Berlin');
    expect(browserTimezone('America/Toronto', 2026)).toBe('UTC-5\tAmerica/New_York');
    expect(browserTimezone('Australia/Melbourne', 2026)).toBe('UTC+10\tAustralia/Sydney');
    expect(browserTimezone('Asia/Kolkata', 2026)).toBe('UTC+5.5\tAsia/Kolkata');
  });

  it('null for a zone it cannot place', () => {
    expect(browserTimezone('Not/AZone', 2026)).toBeNull();
    expect(TIMEZONES).not.toContain(null);
  });
});

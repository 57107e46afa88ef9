import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEZONE } from '@lectern/shared';
import { isLongEnough, passwordRules } from './password-rules';
import { TIMEZONES, timezoneOptions } from './timezones';
import { readAsDataUrl } from './read-file';

describe('password rules (SPEC §5)', () => {
  it('wants a new password longer than 8 characters', async () => {
    expect(isLongEnough('12345678')).toBe(false);
    expect(isLongEnough('123456789')).toBe(true);
    const [, length] = passwordRules('required', 'too short');
    const validate = (value: string) =>
      (length as { validator: (r: unknown, v: string) => Promise<void> }).validator({}, value);
    await expect(validate('12345678')).rejects.toThrow('too short');
    await expect(validate('123456789')).resolves.toBeUndefined();
  });
});

describe('time zones', () => {
  it('are stored as "UTC±h<TAB>Area/City" and include the server default', () => {
    expect(TIMEZONES).toContain(DEFAULT_TIMEZONE);
    for (const tz of TIMEZONES) expect(tz).toMatch(/^UTC[+-]\d+(\.\d+)?\t[A-Za-z_]+(\/[A-Za-z_+\d]+)*$/);
    expect(new Set(TIMEZONES).size).toBe(TIMEZONES.length);
  });

  it('keep a stored value that is not in the list as an option', () => {
    expect(timezoneOptions('UTC+3\tEurope/Istanbul')[0]).toEqual({
      value: 'UTC+3\tEurope/Istanbul',
      label: 'UTC+3  ·  Europe/Istanbul',
    });
    expect(timezoneOptions(DEFAULT_TIMEZONE)).toHaveLength(TIMEZONES.length);
  });
});

describe('avatar file reading', () => {
  it('reads a picked file as a data URL for /v1/user/setting', async () => {
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', { type: 'image/png' });
    expect(await readAsDataUrl(file)).toBe('data:image/png;base64,iVBORw==');
  });
});

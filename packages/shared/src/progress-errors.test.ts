import { describe, expect, it } from 'vitest';
import { errorClassOf, errorDetail } from './progress-errors.js';
import { describeErrorText, matchProgressMessage, progressMessage } from './progress-messages.js';

/**
 * Free-form error text in log lines (issue 11 item 12): known classes become catalogued (translatable)
 * sentences with the raw text as a short suffix; unknown text stays as written.
 */
describe('error classes in progress lines', () => {
  const cases: Array<[string, string]> = [
    ['connect ECONNREFUSED 127.0.0.1:11434', 'errorUnreachable'],
    ['getaddrinfo ENOTFOUND api.example.invalid', 'errorUnreachable'],
    ['fetch failed', 'errorUnreachable'],
    ['The operation was aborted due to timeout', 'errorTimeout'],
    ['Request timed out after 60000ms', 'errorTimeout'],
    ['Parsing took longer than 120s and was stopped.', 'errorTimeout'],
    ['Status 401: {"error":{"message":"Incorrect API key provided: sk-abc"}}', 'errorProviderAuth'],
    ['HTTP 403 Forbidden', 'errorProviderAuth'],
    ['429 Too Many Requests: rate limit reached for gpt-4o', 'errorProviderRateLimit'],
    ['You exceeded your current quota (insufficient_quota)', 'errorProviderRateLimit'],
    ['status code 503: Service Unavailable', 'errorProviderServer'],
    ['504 Gateway Timeout', 'errorProviderServer'],
    ['Internal Server Error', 'errorProviderServer'],
    [
      'The PDF is encrypted with a password and cannot be read. Remove the password and upload it again.',
      'errorPasswordProtected',
    ],
    ['The PDF is damaged and cannot be read (Invalid XRef stream).', 'errorCorruptFile'],
    ["Can't find end of central directory : is this a zip file ?", 'errorCorruptFile'],
    ['Unsupported image format: image/x-foo', 'errorUnsupportedFile'],
    [
      'The document needs more memory to parse than the server allows, so parsing was stopped.',
      'errorOutOfMemory',
    ],
    ['FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', 'errorOutOfMemory'],
  ];

  for (const [raw, key] of cases) {
    it(`reads "${raw.slice(0, 40)}" as ${key}`, () => {
      expect(errorClassOf(raw)).toBe(key);
      const line = describeErrorText(raw);
      expect(matchProgressMessage(line)).toEqual({ key, params: { detail: errorDetail(raw) } });
    });
  }

  it('keeps the raw detail short, on one line, without brackets', () => {
    const long = `upstream said [${'x'.repeat(200)}]\nstack line`;
    const detail = errorDetail(long);
    expect(detail.length).toBe(80);
    expect(detail.endsWith('…')).toBe(true);
    expect(detail).not.toMatch(/[[\]\n]/);
  });

  it('wraps a classified error inside the failure sentence, which the catalogue reads back', () => {
    const line = progressMessage('keywordsFailed', { error: 'connect ECONNREFUSED 10.0.0.5:8000' });
    expect(line).toBe(
      'Keyword generation failed (The service could not be reached (connection refused or host unreachable). ' +
        '[connect ECONNREFUSED 10.0.0.5:8000]); continuing without keywords.',
    );
    const outer = matchProgressMessage(line);
    expect(outer?.key).toBe('keywordsFailed');
    expect(matchProgressMessage(outer!.params.error)?.key).toBe('errorUnreachable');
  });

  it('leaves catalogued and unknown text as written', () => {
    const catalogued = progressMessage('fileMissing');
    expect(describeErrorText(catalogued)).toBe(catalogued);
    expect(describeErrorText('The file is empty.')).toBe('The file is empty.');
    expect(progressMessage('taskFailed', { error: 'boom' })).toBe('The task failed: boom');
  });
});

import { describe, expect, it } from 'vitest';
import { detailFromBody, httpError } from './errors.js';

/** Issue 11 item 6: a provider's error body is summarized, never echoed raw. */
describe('provider error bodies', () => {
  it('keeps the message of a JSON body, on one printable line', () => {
    expect(detailFromBody('{"error":{"message":"Invalid key\\n\\u0007 try again"}}')).toBe(
      'Invalid key try again',
    );
    expect(detailFromBody(JSON.stringify({ detail: 'x'.repeat(1000) }))).toHaveLength(300);
    expect(detailFromBody('{"internal":"secret"}')).toBe('');
  });

  it('gives only the first line of a text body, shortened, and nothing of an HTML page', () => {
    const text = `root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon\n${'y'.repeat(500)}`;
    expect(detailFromBody(text)).toBe('root:x:0:0:root:/root:/bin/bash');
    expect(detailFromBody('z'.repeat(500))).toBe(`${'z'.repeat(119)}…`);
    expect(detailFromBody('<html><body>admin console</body></html>')).toBe('');
    expect(httpError('Ollama', 502, '<html>upstream</html>').message).toBe('Ollama: 502 Bad Gateway');
  });
});

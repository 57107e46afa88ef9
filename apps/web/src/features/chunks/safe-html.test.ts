import { describe, expect, it } from 'vitest';
import { escapeHtml, plainText, sanitizeHtml } from './safe-html';

describe('chunk HTML sanitizing', () => {
  it('keeps highlight marks and table structure, drops attributes', () => {
    expect(sanitizeHtml('Lithium <em>battery</em> cells')).toBe('Lithium <em>battery</em> cells');
    expect(sanitizeHtml('<table class="x"><tr><td colspan="2" onclick="alert(1)">a</td></tr></table>')).toBe(
      '<table><tbody><tr><td colspan="2">a</td></tr></tbody></table>',
    );
  });

  it('removes scripts, event handlers and unknown tags but keeps their text where harmless', () => {
    expect(sanitizeHtml('<img src=x onerror="alert(1)">ok')).toBe('ok');
    expect(sanitizeHtml('a<script>alert(1)</script>b')).toBe('ab');
    expect(sanitizeHtml('<a href="javascript:alert(1)">link</a>')).toBe('link');
    expect(sanitizeHtml('1 < 2 & 3 > 2')).toBe('1 &lt; 2 &amp; 3 &gt; 2');
  });

  it('gives plain text and escapes', () => {
    expect(plainText('<em>a</em> &amp; b')).toBe('a & b');
    expect(escapeHtml('<"&>')).toBe('&lt;&quot;&amp;&gt;');
  });
});

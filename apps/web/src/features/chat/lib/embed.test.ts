import { describe, expect, it } from 'vitest';
import { embedSnippet, EMBED_KINDS, shareUrl } from './embed';

describe('embed snippets', () => {
  const url = shareUrl('https://lectern.example/', 'd'.repeat(32), 'beta&"x', 'de');

  it('point at the shared chat page with the dialog id and the beta token', () => {
    const parsed = new URL(url);
    expect(parsed.pathname).toBe('/chat/share');
    expect(parsed.searchParams.get('shared_id')).toBe('d'.repeat(32));
    expect(parsed.searchParams.get('auth')).toBe('beta&"x');
    expect(parsed.searchParams.get('locale')).toBe('de');
  });

  it('carry the address, HTML-escaped, in every kind', () => {
    for (const kind of EMBED_KINDS) {
      const snippet = embedSnippet(kind, url, 'Support "bot"');
      expect(snippet).toContain(url.replace(/&/g, '&amp;'));
      expect(snippet).not.toContain('"x"');
    }
    expect(embedSnippet('fullscreen', url, 't')).toMatch(/^<iframe/);
    expect(embedSnippet('partial', url, 't')).toContain('position: fixed');
    const extension = embedSnippet('extension', url, 'Support');
    expect(extension).toContain('"manifest_version": 3');
    expect(extension).toContain('sidepanel.html');
  });
});
